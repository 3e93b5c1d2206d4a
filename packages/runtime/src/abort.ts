/**
 * `promise`, or the signal's reason as soon as the signal aborts: for work that takes no signal of
 * its own (a caller's `token()` function, a stream read) and must not outlive a timeout or an abort.
 * The listener is removed once the promise settles, so nothing it resolved to stays reachable from
 * a long-lived signal.
 */
export function untilAborted<T>(promise: T | PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(promise);
  if (signal.aborted) {
    // Nobody waits for the promise any more: its later rejection must not be an unhandled one.
    Promise.resolve(promise).catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The longest delay setTimeout holds; it runs a longer one (and Infinity) after 1 ms, with a warning. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fn` after `ms` milliseconds, however long: past what setTimeout holds (about 24.8 days) it
 * waits in steps, and `Infinity` never fires, so a caller's "no limit" or a month-long timeout means
 * what it says. Returns a function that cancels it.
 */
export function startTimer(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (left: number) => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(fn, left);
  };
  if (ms !== Infinity) arm(ms);
  return () => clearTimeout(timer);
}

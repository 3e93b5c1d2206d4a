/** A component input that does not deserialise, an unknown component or a failing call. */
export class ComponentError extends Error {
  override name = "ComponentError";
  constructor(
    readonly component: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${component}: ${reason}`, options);
  }
}

import { isErrorInstance } from "@flowspec/runtime";

/** A component input that does not deserialise, an unknown component or a failing call. */
export class ComponentError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:ComponentError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ComponentError";
  constructor(
    readonly component: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${component}: ${reason}`, options);
  }
}

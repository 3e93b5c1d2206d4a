import { isErrorInstance } from "@flowspec/runtime";

// Its own module: `checkFlow` reports routing errors and must not load the router's plugins with it.
/** No route for a component ("error routing component"). */
export class RoutingError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:RoutingError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "RoutingError";
  constructor(
    readonly component: string,
    reason: string,
  ) {
    super(`cannot route ${JSON.stringify(component)}: ${reason}`);
  }
}

/** References as the builder makes them: typed, and only from step handles or the flow input. */
import { parsePath, toDollarPath, type PathSegment } from "../path.js";
import type { Reference } from "../generated/index.js";

declare const VALUE: unique symbol;

/** Where a reference points: the run input, or a step of a builder (by index, so foreign or later steps are caught). */
export type RefOrigin = { kind: "input" } | { kind: "step"; id: string; index: number; owner: object };

/**
 * A reference to the flow input or to an earlier step's result, of type `T`. Use it anywhere in a
 * step input, `skipIf`, `onError` default or the output.
 */
export class Ref<T> {
  declare readonly [VALUE]?: T;

  /** @internal */
  constructor(
    readonly origin: RefOrigin,
    readonly segments: readonly PathSegment[],
    readonly onSkip?: Reference["onSkip"],
  ) {}

  /** When the referenced step was skipped, use `value` instead (onSkip: useDefault). */
  orDefault<D>(value: D): Ref<T | D> {
    return new Ref<T | D>(this.origin, this.segments, { action: "useDefault", defaultValue: value as never });
  }

  /** When the referenced step was skipped, use `null` (onSkip: useDefault without a value). */
  orNull(): Ref<T | null> {
    return new Ref<T | null>(this.origin, this.segments, { action: "useDefault" });
  }

  /** The reference as it is written in a flow, with its path in `$`-form. */
  toJSON(): Reference {
    const from = this.origin.kind === "input" ? { workflow: "input" as const } : { step: this.origin.id };
    const out: Reference = { $from: from };
    if (this.segments.length > 0) out.path = toDollarPath(this.segments);
    if (this.onSkip) out.onSkip = this.onSkip;
    return out;
  }
}

/** Parses the path argument of `ref()`: `$`-paths by §6.1, anything else is one field name. */
export function refSegments(path: string | undefined): PathSegment[] {
  if (path === undefined) return [];
  const segments = parsePath(path);
  toDollarPath(segments); // throws for a key no path can address
  return segments;
}

/** A value emitted verbatim (`{$literal: value}`): nothing inside it is read as a reference. */
export class Literal<T> {
  constructor(readonly value: T) {}
  toJSON(): { $literal: T } {
    return { $literal: this.value };
  }
}

/** Escapes a value so that `$from` objects inside it stay data. */
export function literal<T>(value: T): Literal<T> {
  return new Literal(value);
}

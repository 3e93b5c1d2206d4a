/**
 * Type-level reading of reference paths, so `step.ref("$.items[0].name")` is typed by the step's
 * output type and a path into a field that type does not have does not compile.
 */

import type { Ref } from "./ref.js";

/** The result of a lookup that cannot succeed on the given type. */
export interface InvalidPath {
  readonly __invalidPath: true;
}

type IsAny<T> = 0 extends 1 & T ? true : false;
type Digits = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type IsIndex<S extends string> = S extends `${Digits}${infer R}` ? (R extends "" ? true : IsIndex<R>) : false;
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** One segment: a field name or an index (`{index}`), or `InvalidPath`. */
type Index = { readonly index: true };

type BracketSegment<C extends string> = C extends `"${infer K}"` ? K : C extends `'${infer K}'` ? K : IsIndex<C> extends true ? Index : InvalidPath;

/** The segments after `$`, as §6.1 reads them. */
export type PathSegments<S extends string> = S extends ""
  ? []
  : S extends `.${infer R}`
    ? DotSegments<R>
    : S extends `[${infer C}]${infer R}`
      ? [BracketSegment<Trim<C>>, ...PathSegments<R>]
      : [InvalidPath];

type DotSegments<S extends string> = S extends `${infer F}.${infer R}`
  ? F extends `${infer G}[${infer H}`
    ? WithField<G, PathSegments<`[${H}.${R}`>>
    : WithField<F, PathSegments<`.${R}`>>
  : S extends `${infer G}[${infer H}`
    ? WithField<G, PathSegments<`[${H}`>>
    : WithField<S, []>;

type WithField<F extends string, Rest extends unknown[]> = F extends "" ? Rest : [F, ...Rest];

/** The type of one lookup. `any` stays `any`, `unknown` stays `unknown`. */
type Lookup<T, S> =
  IsAny<T> extends true
    ? any
    : unknown extends T
      ? unknown
      : S extends Index
        ? T extends readonly (infer E)[]
          ? E
          : InvalidPath
        : S extends string
          ? T extends readonly unknown[]
            ? InvalidPath
            : T extends object
              ? S extends keyof T
                ? Exclude<T[S], undefined>
                : InvalidPath
              : InvalidPath
          : InvalidPath;

/**
 * Lookups distribute over unions: a path is valid when some member has it, and its type is what
 * those members give (at run time the others, `null` included, fail to resolve there).
 */
type Walk<T, Segments> = Segments extends [infer H, ...infer R]
  ? H extends InvalidPath
    ? InvalidPath
    : Lookup<T, H> extends infer V
      ? IsAny<V> extends true
        ? any
        : [V] extends [InvalidPath]
          ? InvalidPath
          : Walk<Exclude<V, InvalidPath>, R>
      : never
  : T;

/** The type a path selects from `T`: a `$`-path is read segment by segment, anything else is one field name. */
export type PathValue<T, P extends string> = IsAny<T> extends true ? any : P extends "" ? T : Trim<P> extends `$${infer R}` ? Walk<T, PathSegments<R>> : Walk<T, [P]>;

/** `P` when it selects something from `T`, else `never` (so the call does not compile). */
export type ValidPath<T, P extends string> = IsAny<PathValue<T, P>> extends true ? P : [PathValue<T, P>] extends [InvalidPath] ? never : P;

/** The value type of a reference. */
export type RefValue<R> = R extends Ref<infer T> ? T : never;

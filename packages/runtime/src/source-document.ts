import { isErrorInstance } from "./error-brand.js";

/** A 1-based line and column in a source text. */
export interface SourceLocation {
  line: number;
  column: number;
}

/** A parsed JSON or YAML document that can say where each value came from. */
export interface SourceDocument {
  readonly value: unknown;
  /** The file name given to `parseSourceDocument`, if any. */
  readonly file?: string;
  readonly format: "json" | "yaml";
  /**
   * Where the value at `pointer` starts. For a pointer into something that does not exist (a
   * missing required property), the location of its deepest existing ancestor.
   */
  locate(pointer: string): SourceLocation;
  /** `file:line:column` (or `line:column` without a file) for the value at `pointer`. */
  describe(pointer: string): string;
}

/** A syntax error in a JSON or YAML text, with the parser's position. */
export class DocumentParseError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:DocumentParseError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "DocumentParseError";
  constructor(
    readonly reason: string,
    readonly file: string | undefined,
    readonly location: SourceLocation,
  ) {
    super(`${file ?? "<input>"}:${location.line}:${location.column}: ${reason}`);
  }
}

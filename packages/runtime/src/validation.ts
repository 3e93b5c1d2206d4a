import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { issuesFromAjv, type AjvErrorObject } from "./issues.js";
import { isErrorInstance } from "./error-brand.js";

/** One reason a value does not match a schema. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value; for a missing property, to where it should be. */
  path: string;
  /** What is wrong, readable by a person. */
  message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, …). */
  keyword: string;
  /** The keyword's parameters, as ajv reports them. */
  params: Record<string, unknown>;
}

export type ValidationResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** The issues of the first `maxErrors` errors found, in the order they were found. */
      errors: ValidationIssue[];
      /** How many errors were found past `maxErrors` and left out (absent when none were). */
      omittedErrors?: number;
    };

/** How many errors generated validators keep by default; they count the rest. */
export const DEFAULT_MAX_ERRORS = 100;

export interface ValidateOptions {
  /**
   * The most errors to keep (a positive integer, or `Infinity` for all; default 100). Those found
   * past it are only counted (`omittedErrors`), which keeps a document with many bad items cheap to
   * reject. The verdict never depends on it.
   */
  maxErrors?: number;
}

/**
 * A validator function as ajv standalone code emits it: returns a boolean and leaves the errors of
 * the last call on its `errors` property. Generated validators also take `maxErrors` in their
 * second argument (ajv's context object), keep at most that many errors, and count all of them in
 * `errorCount`.
 */
export interface CompiledValidator {
  (value: unknown, context?: { maxErrors?: number }): boolean;
  errors?: AjvErrorObject[] | null;
  /** Every error the last call found, also those past `maxErrors` (when absent: `errors.length`). */
  errorCount?: number;
}

export type Validate<T> = (value: unknown, options?: ValidateOptions) => ValidationResult<T>;
export type Guard<T> = (value: unknown) => value is T;
export type Assert<T> = (value: unknown, options?: ValidateOptions) => asserts value is T;

/** Thrown by `assertX` functions; the message lists every issue as `JSON Pointer: message`. */
export class ValidationError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:ValidationError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "ValidationError";
  constructor(
    /** The name of the type that was expected, such as `Flow`. */
    readonly typeName: string,
    readonly errors: readonly ValidationIssue[],
    /** How many errors were found past `maxErrors` and left out of `errors`. */
    readonly omittedErrors = 0,
  ) {
    super(`Invalid ${typeName}:\n${formatIssues(errors, omittedErrors)}`);
  }
}

/**
 * Formats issues one per line as `  /path: message`, with `(root)` for the empty pointer, and a last
 * line `  … and N more` for errors left out past `maxErrors`.
 */
export function formatIssues(issues: readonly ValidationIssue[], omittedErrors = 0): string {
  const lines = issues.map((issue) => `  ${issue.path || "(root)"}: ${issue.message}`);
  if (omittedErrors > 0) lines.push(`  ${moreErrors(omittedErrors)}`);
  return lines.join("\n");
}

const moreErrors = (omitted: number) => `… and ${omitted} more`;

/** The context passed to a compiled validator for `options`, after checking them. */
function contextOf(options: ValidateOptions | undefined): { maxErrors?: number } | undefined {
  const maxErrors = options?.maxErrors;
  if (maxErrors === undefined) return undefined;
  if (!(maxErrors === Infinity || (Number.isInteger(maxErrors) && maxErrors >= 1))) {
    throw new RangeError(`maxErrors must be a positive integer or Infinity, got ${typeof maxErrors === "number" ? maxErrors : JSON.stringify(maxErrors)}`);
  }
  return { maxErrors };
}

/** The failure a compiled validator's last call leaves: its issues, and how many errors it left out. */
function failureOf(compiled: CompiledValidator): { ok: false; errors: ValidationIssue[]; omittedErrors?: number } {
  const errors = issuesFromAjv(compiled.errors);
  const omittedErrors = (compiled.errorCount ?? 0) - (compiled.errors?.length ?? 0);
  return omittedErrors > 0 ? { ok: false, errors, omittedErrors } : { ok: false, errors };
}

export function createValidate<T>(compiled: CompiledValidator): Validate<T> {
  return (value, options) => (compiled(value, contextOf(options)) ? { ok: true, value: value as T } : failureOf(compiled));
}

// A guard needs the verdict only, which never depends on how many errors are kept.
const GUARD_CONTEXT = { maxErrors: 1 };

export function createGuard<T>(compiled: CompiledValidator): Guard<T> {
  return (value): value is T => compiled(value, GUARD_CONTEXT);
}

export function createAssert<T>(compiled: CompiledValidator, typeName: string): Assert<T> {
  return (value, options) => {
    if (compiled(value, contextOf(options))) return;
    const failure = failureOf(compiled);
    throw new ValidationError(typeName, failure.errors, failure.omittedErrors);
  };
}

/** The dialect of a generated type's JSON Schema, named as Standard JSON Schema names its targets. */
export type JsonSchemaDialect = "draft-04" | "draft-07" | "draft-2019-09" | "draft-2020-12";

/**
 * A Standard Schema v1 validator that also implements Standard JSON Schema v1, so any library that
 * speaks either (form libraries, tRPC, LLM tool frameworks) can use a generated type directly.
 */
export interface FlowspecSchema<T> extends StandardSchemaV1<T>, StandardJSONSchemaV1<T> {
  readonly "~standard": StandardSchemaV1.Props<T> & StandardJSONSchemaV1.Props<T>;
  /** The name of the type, such as `Flow`. */
  readonly typeName: string;
  /** The self-contained JSON Schema of the type, in its own dialect. */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  readonly dialect: JsonSchemaDialect;
  readonly validate: Validate<T>;
}

/**
 * @param jsonSchema the type's JSON Schema, or its JSON text: generated code passes text, parsed on
 *   first use, so a program that only validates never builds the schema objects.
 */
export function createStandardSchema<T>(
  compiled: CompiledValidator,
  typeName: string,
  jsonSchema: Record<string, unknown> | string,
  dialect: JsonSchemaDialect,
): FlowspecSchema<T> {
  const validate = createValidate<T>(compiled);
  let parsed = typeof jsonSchema === "string" ? undefined : jsonSchema;
  const schemaObject = () => (parsed ??= JSON.parse(jsonSchema as string) as Record<string, unknown>);
  const toJsonSchema = (options: StandardJSONSchemaV1.Options): Record<string, unknown> => {
    if (options.target !== dialect) {
      throw new Error(
        `${typeName}'s JSON Schema is ${dialect}; target "${options.target}" is not supported (use "${dialect}")`,
      );
    }
    return schemaObject();
  };
  return {
    typeName,
    get jsonSchema() {
      return schemaObject();
    },
    dialect,
    validate,
    "~standard": {
      version: 1,
      vendor: "flowspec",
      validate(value) {
        const result = validate(value);
        if (result.ok) return { value: result.value };
        const issues: StandardSchemaV1.Issue[] = result.errors.map(toStandardIssue);
        // Standard Schema has no place for a count: the errors left out are a last issue, without a path.
        if (result.omittedErrors) issues.push({ message: moreErrors(result.omittedErrors) });
        return { issues };
      },
      jsonSchema: { input: toJsonSchema, output: toJsonSchema },
    },
  };
}

function toStandardIssue(issue: ValidationIssue): StandardSchemaV1.Issue {
  return { message: issue.message, path: parsePointer(issue.path) };
}

/** Splits a JSON Pointer into its unescaped reference tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON Pointer: ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Builds a JSON Pointer from reference tokens. */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => "/" + String(token).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

export { issuesFromAjv, type AjvErrorObject } from "./issues.js";

export { isThenable } from "./thenable.js";

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
  | { ok: false; errors: ValidationIssue[] };

/**
 * A validator function as ajv standalone code emits it: returns a boolean and leaves the errors of
 * the last call on its `errors` property.
 */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

export type Validate<T> = (value: unknown) => ValidationResult<T>;
export type Guard<T> = (value: unknown) => value is T;
export type Assert<T> = (value: unknown) => asserts value is T;

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
  ) {
    super(`Invalid ${typeName}:\n${formatIssues(errors)}`);
  }
}

/** Formats issues one per line as `  /path: message`, with `(root)` for the empty pointer. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `  ${issue.path || "(root)"}: ${issue.message}`).join("\n");
}

export function createValidate<T>(compiled: CompiledValidator): Validate<T> {
  return (value) =>
    compiled(value) ? { ok: true, value: value as T } : { ok: false, errors: issuesFromAjv(compiled.errors) };
}

export function createGuard<T>(compiled: CompiledValidator): Guard<T> {
  return (value): value is T => compiled(value);
}

export function createAssert<T>(compiled: CompiledValidator, typeName: string): Assert<T> {
  return (value) => {
    if (!compiled(value)) throw new ValidationError(typeName, issuesFromAjv(compiled.errors));
  };
}

export type JsonSchemaDialect = "draft-07" | "draft-2020-12";

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
        return result.ok ? { value: result.value } : { issues: result.errors.map(toStandardIssue) };
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

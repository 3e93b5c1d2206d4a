import type { ValidationIssue } from "./validation.js";
import { toPointer } from "./validation.js";

/** The shape of an ajv error object (ajv's own `ErrorObject`, restated so generated code needs no ajv types). */
export interface AjvErrorObject {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, any>;
  message?: string;
}

/** Turns ajv's errors into issues a person can read, each with a JSON Pointer to where it applies. */
export function issuesFromAjv(errors: readonly AjvErrorObject[] | null | undefined): ValidationIssue[] {
  if (!errors || errors.length === 0) {
    return [{ path: "", message: "is invalid", keyword: "unknown", params: {} }];
  }
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  // A oneOf that failed because several branches matched: the errors of the branches that did not
  // match explain nothing, so they are dropped (those of inline branches share its schema path).
  const ambiguous = errors.filter((e) => e.keyword === "oneOf" && e.params.passingSchemas).map((e) => `${e.schemaPath}/`);
  for (const error of errors) {
    if (ambiguous.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const issue = issueFromAjv(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function issueFromAjv(error: AjvErrorObject): ValidationIssue {
  const { instancePath: path, keyword, params } = error;
  const issue = (message: string, at = path): ValidationIssue => ({ path: at, message, keyword, params });
  switch (keyword) {
    case "required":
      return issue(`missing required property "${params.missingProperty}"`, path + toPointer([params.missingProperty]));
    case "dependentRequired":
    case "dependencies":
      // Like `required`: the pointer names where the missing property should be.
      if (params.missingProperty === undefined) return issue(error.message ?? `fails "${keyword}"`);
      return issue(`missing property "${params.missingProperty}" (required when "${params.property}" is present)`, path + toPointer([params.missingProperty]));
    case "additionalProperties":
      return issue(
        `unexpected property "${params.additionalProperty}" (not allowed here)`,
        path + toPointer([params.additionalProperty]),
      );
    case "unevaluatedProperties":
      return issue(
        `unexpected property "${params.unevaluatedProperty}" (not allowed here)`,
        path + toPointer([params.unevaluatedProperty]),
      );
    case "type":
      return issue(`must be ${describeTypes(params.type)}`);
    case "enum":
      return issue(`must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`);
    case "const":
      return issue(`must equal ${JSON.stringify(params.allowedValue)}`);
    case "format":
      return issue(`must be a valid "${params.format}"`);
    case "oneOf":
      return issue(
        params.passingSchemas
          ? `must match exactly one of the allowed shapes, but matches ${params.passingSchemas.length}`
          : "must match exactly one of the allowed shapes, but matches none",
      );
    case "anyOf":
      return issue("must match at least one of the allowed shapes");
    case "if":
      return issue(`must match the "${params.failingKeyword}" schema of its if/then rule`);
    default:
      return issue(error.message ?? `fails "${keyword}"`);
  }
}

function describeTypes(type: string | string[]): string {
  const types = Array.isArray(type) ? type : String(type).split(",");
  return types.map((t) => (t === "null" ? "null" : `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`)).join(" or ");
}

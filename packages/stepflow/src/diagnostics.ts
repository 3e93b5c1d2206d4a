import type { SourceDocument, ValidationIssue } from "@flowspec/runtime";

/**
 * The rules of the static check. `fatal` rules make the 0.2.x runtime refuse to run a flow
 * ("error analyzing workflow"); the other errors fail `validate` but not `run` (protocol notes §6.7).
 */
export type DiagnosticRule =
  | "schema"
  | "malformed-reference"
  | "invalid-path"
  | "empty-step-id"
  | "duplicate-step-id"
  | "self-reference"
  | "undefined-step"
  | "later-step"
  | "component-not-absolute"
  | "unknown-component"
  | "unreachable-step"
  | "missing-name"
  | "missing-description";

/** One finding of `checkFlow`: where (JSON Pointer, and `file:line:column` for a file) and what. */
export interface Diagnostic {
  level: "error" | "warning";
  rule: DiagnosticRule;
  message: string;
  /** JSON Pointer into the flow document. */
  path: string;
  /** `file:line:column` (or `line:column`) when the flow came from a source document. */
  location?: string;
}

/** Rules the runtime treats as fatal: `runFlow` answers "error analyzing workflow". */
export const FATAL_RULES: ReadonlySet<DiagnosticRule> = new Set(["empty-step-id", "duplicate-step-id", "self-reference", "undefined-step", "later-step"]);

export function isFatal(diagnostic: Diagnostic): boolean {
  return diagnostic.level === "error" && FATAL_RULES.has(diagnostic.rule);
}

/** Adds `location` from a source document to each diagnostic. */
export function locate<T extends { path: string; location?: string }>(items: T[], source: SourceDocument | undefined): T[] {
  if (!source) return items;
  for (const item of items) item.location = source.describe(item.path);
  return items;
}

/** Formats diagnostics one per line: `location pointer: level: message`. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => `${d.location ? `${d.location} ` : ""}${d.path || "(root)"}: ${d.level}: ${d.message} [${d.rule}]`)
    .join("\n");
}

export function schemaDiagnostics(issues: readonly ValidationIssue[]): Diagnostic[] {
  return issues.map((issue) => ({ level: "error", rule: "schema", message: issue.message, path: issue.path }));
}

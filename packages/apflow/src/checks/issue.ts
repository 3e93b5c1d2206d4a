/** Rule ids of the semantic checks (protocol notes §2–§3); `schema` is a layer-1 (JSON Schema) failure. */
export type IssueCode =
  | "schema"
  | "uuid"
  | "timestamp"
  | "timestamp-not-utc"
  | "schemas-method"
  | "schemas-type"
  | "input-schema"
  | "inputs"
  | "status-result"
  | "missing-result"
  | "status-error"
  | "missing-error"
  | "empty-error"
  | "started-at"
  | "completed-at"
  | "timestamp-order"
  | "completed-progress"
  | "unknown-field"
  | "self-dependency"
  | "duplicate-dependency"
  | "dangling-dependency"
  | "dependency-cycle"
  | "duplicate-id"
  | "root-parent"
  | "parent-mismatch"
  | "root-count"
  | "dangling-parent"
  | "parent-cycle"
  | "mixed-user-id";

export type Severity = "error" | "warning";

/** One finding of a check: where (JSON Pointer into the checked value), which rule, and what is wrong. */
export interface Issue {
  severity: Severity;
  code: IssueCode;
  path: string;
  message: string;
  /** The id of the task the issue is about, when it has one. */
  taskId?: string;
  /** For `dependency-cycle` and `parent-cycle`: the ids around the loop, the first repeated at the end. */
  cycle?: string[];
  /** For `schema` and `inputs`: the JSON Schema keyword that failed, and its parameters. */
  keyword?: string;
  params?: Record<string, unknown>;
}

export interface CheckResult {
  /** True when there are no errors (warnings allowed). */
  ok: boolean;
  errors: Issue[];
  warnings: Issue[];
}

/**
 * `strict` is the Spec as written (UUID v4 ids, RFC 3339 timestamps, MUST rules are errors); `wire`
 * accepts what a v1 server sends and reports the differences as warnings.
 */
export type CheckMode = "strict" | "wire";

export interface CheckOptions {
  mode?: CheckMode;
  /** Also validate each task's `inputs` against its `schemas.input_schema` (compiles schemas at run time). */
  checkInputs?: boolean;
}

/** Collects issues in the order they are found. */
export interface IssueSink {
  readonly mode: CheckMode;
  readonly errors: Issue[];
  readonly warnings: Issue[];
  add(issue: Issue): void;
  error(code: IssueCode, path: string, message: string, extra?: Partial<Issue>): void;
  warn(code: IssueCode, path: string, message: string, extra?: Partial<Issue>): void;
  /** A Spec MUST: an error in strict mode, a warning in wire mode. */
  must(code: IssueCode, path: string, message: string, extra?: Partial<Issue>): void;
}

export function createIssueSink(mode: CheckMode): IssueSink {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const add = (issue: Issue) => void (issue.severity === "error" ? errors : warnings).push(issue);
  return {
    mode,
    errors,
    warnings,
    add,
    error: (code, path, message, extra) => add({ severity: "error", code, path, message, ...extra }),
    warn: (code, path, message, extra) => add({ severity: "warning", code, path, message, ...extra }),
    must: (code, path, message, extra) =>
      add({ severity: mode === "strict" ? "error" : "warning", code, path, message, ...extra }),
  };
}

export function resultOf(sink: IssueSink): CheckResult {
  return { ok: sink.errors.length === 0, errors: sink.errors, warnings: sink.warnings };
}

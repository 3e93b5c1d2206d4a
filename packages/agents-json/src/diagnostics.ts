import type { SourceDocument } from "@flowspec/runtime";

export type Severity = "error" | "warning" | "info";

/** The two loader modes of protocol notes §2.4: `strict` follows the canonical schema, `compat` tolerates corpus deviations. */
export type Mode = "strict" | "compat";

/**
 * One finding of the loader or the linter. `path` is a JSON Pointer into the raw document; `file`,
 * `line` and `column` are there when the document came from text.
 */
export interface Diagnostic {
  /** A stable rule id such as `parameter-extra-keys` (or `schema` for a schema error). */
  code: string;
  severity: Severity;
  path: string;
  message: string;
  hint?: string;
  file?: string;
  line?: number;
  column?: number;
}

/** Adds `file:line:column` from the parsed source text, when there is one. */
export function locate(diagnostic: Diagnostic, source: SourceDocument | undefined): Diagnostic {
  if (!source) return diagnostic;
  const { line, column } = source.locate(diagnostic.path);
  return { ...diagnostic, ...(source.file === undefined ? {} : { file: source.file }), line, column };
}

/** `file:line:column` (or `line:column`, or the JSON Pointer) of a diagnostic, for messages. */
export function where(diagnostic: Diagnostic): string {
  if (diagnostic.line === undefined) return diagnostic.path || "/";
  return `${diagnostic.file === undefined ? "" : `${diagnostic.file}:`}${diagnostic.line}:${diagnostic.column ?? 1}`;
}

/** One line per diagnostic: `where severity code: message (path)`. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const at = where(diagnostic);
  const pointer = diagnostic.line === undefined ? "" : ` (${diagnostic.path || "/"})`;
  return `${at} ${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}${pointer}`;
}

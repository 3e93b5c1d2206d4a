import { lintAgentsJson } from "@flowspec/agents-json";
import { checkTask, checkTaskTree, type CheckResult } from "@flowspec/apflow";
import { DocumentParseError, parseSourceDocument, type SourceDocument } from "@flowspec/runtime";
import { checkFlow } from "@flowspec/stepflow/flow";
import { detectKind, findKind, KINDS, MAIN_KIND, type DocumentKind } from "./kinds.js";

/** One finding about a document, at a JSON Pointer and the line and column it starts at. */
export interface DocumentDiagnostic {
  severity: "error" | "warning" | "info";
  /**
   * What found it: `parse` (syntax, size), `kind` (no kind detected), `schema` (the generated
   * validator), or a spec's own checks: `stepflow-check` (`checkFlow`), `agents-json-lint`
   * (`lintAgentsJson`), `apflow-check` (`checkTask`, `checkTaskTree`).
   */
  source: "parse" | "kind" | "schema" | "stepflow-check" | "agents-json-lint" | "apflow-check";
  /** The rule: `syntax`, `too-large`, `unknown-kind`, `schema`, `omitted`, or the check's own rule id (`later-step`, `dependency-cycle`, …). */
  code: string;
  /** JSON Pointer into the document (`""` is the whole document). */
  path: string;
  message: string;
  /** How to fix it, when the check says. */
  hint?: string;
  /** 1-based. */
  line: number;
  column: number;
}

export interface DocumentCheck {
  /** True when no diagnostic is an error. */
  ok: boolean;
  /** The kind checked, chosen or detected; absent when the text did not parse or no kind was detected. */
  kind?: DocumentKind;
  variant?: string;
  /** True when the kind was detected rather than chosen. */
  detected: boolean;
  /** The parsed document; absent for a syntax error or a text over the size limit. */
  document?: SourceDocument;
  /** Every finding, sorted by line and column. */
  diagnostics: DocumentDiagnostic[];
}

export interface CheckDocumentOptions {
  /** `spec:Root` or a spec name for its main kind (see `KINDS`, `MAIN_KIND`); detected when left out. */
  kind?: string;
  /** The schema variant (`strict`, `compat`, `wire`, …); the kind's default when left out. */
  variant?: string;
  /** JSON or YAML; by default from `file`'s extension, else sniffed. */
  format?: "json" | "yaml";
  /** Used in syntax error messages and to pick the format. */
  file?: string;
  /** Texts longer than this many UTF-8 bytes are not parsed (default 4 MiB). */
  maxBytes?: number;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * Parses a JSON or YAML text and checks it as `flowspec` does: the document kind detected (or
 * chosen), its schema, and the spec's own checks (StepFlow's `checkFlow`, the agents.json linter
 * without sources, apflow's semantic checks of a Task or TaskTreeNode), each finding located at a
 * line and column. Runs anywhere: no file, network or Node builtin is touched. Throws a
 * `RangeError` only for an unknown `kind` or `variant` option.
 */
export async function checkDocument(text: string, options: CheckDocumentOptions = {}): Promise<DocumentCheck> {
  const chosen = options.kind === undefined ? undefined : findKind(options.kind);
  if (options.kind !== undefined && !chosen) {
    throw new RangeError(`unknown kind "${options.kind}"; one of: ${Object.keys(MAIN_KIND).join(", ")}, ${KINDS.map((k) => k.id).join(", ")}`);
  }
  if (chosen && options.variant !== undefined && !chosen.variants.includes(options.variant)) {
    throw new RangeError(`variant "${options.variant}" does not exist for ${chosen.id}; its variants: ${chosen.variants.join(", ")}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (overBytes(text, maxBytes)) return failed(chosen, "parse", "too-large", `the text is over ${maxBytes} bytes, the most this check reads`);

  let document: SourceDocument;
  try {
    document = parseSourceDocument(text, { ...(options.file === undefined ? {} : { file: options.file }), ...(options.format === undefined ? {} : { format: options.format }) });
  } catch (error) {
    if (!(error instanceof DocumentParseError)) throw error;
    return failed(chosen, "parse", "syntax", error.reason, error.location);
  }
  const kind = chosen ?? detectKind(document.value);
  if (!kind) return { ...failed(undefined, "kind", "unknown-kind", "cannot tell which kind of document this is; choose its kind"), document };
  const variant = options.variant !== undefined && kind.variants.includes(options.variant) ? options.variant : kind.defaultVariant;
  const located = (d: Omit<DocumentDiagnostic, "line" | "column">): DocumentDiagnostic => ({ ...d, ...document.locate(d.path) });
  const diagnostics = (await findings(kind, variant, document.value)).map(located);
  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: !diagnostics.some((d) => d.severity === "error"), kind, variant, detected: !chosen, document, diagnostics };
}

type Finding = Omit<DocumentDiagnostic, "line" | "column">;

/** The checks of each kind: the spec's own where it has them (they include the schema), else the schema alone. */
async function findings(kind: DocumentKind, variant: string, value: unknown): Promise<Finding[]> {
  switch (kind.id) {
    case "stepflow:Flow":
      return checkFlow(value).map((d) => ({ severity: d.level, source: d.rule === "schema" ? "schema" : "stepflow-check", code: d.rule, path: d.path, message: d.message }));
    case "agents-json:AgentsJson": {
      // An object, not the text: the linter would parse it again. Without sources, only document rules run.
      if (typeof value !== "object" || value === null) return schemaOnly(kind, variant, value);
      const report = await lintAgentsJson(value, { mode: variant === "compat" ? "compat" : "strict" });
      return report.findings.map((d) => ({
        severity: d.severity,
        source: d.code === "schema" ? "schema" : "agents-json-lint",
        code: d.code,
        path: d.path,
        message: d.message,
        ...(d.hint === undefined ? {} : { hint: d.hint }),
      }));
    }
    case "apflow:TaskTreeNode":
    case "apflow:Task": {
      const check = kind.id === "apflow:Task" ? checkTask : checkTaskTree;
      const result: CheckResult = check(value, { mode: variant === "wire" ? "wire" : "strict" });
      return [...result.errors, ...result.warnings].map((i) => ({ severity: i.severity, source: i.code === "schema" ? "schema" : "apflow-check", code: i.code, path: i.path, message: i.message }));
    }
    default:
      return schemaOnly(kind, variant, value);
  }
}

function schemaOnly(kind: DocumentKind, variant: string, value: unknown): Finding[] {
  const result = kind.validate(value, variant);
  if (result.ok) return [];
  const out: Finding[] = result.errors.map((e) => ({ severity: "error", source: "schema", code: "schema", path: e.path, message: e.message }));
  if (result.omittedErrors) out.push({ severity: "info", source: "schema", code: "omitted", path: "", message: `… and ${result.omittedErrors} more schema errors` });
  return out;
}

function failed(kind: DocumentKind | undefined, source: DocumentDiagnostic["source"], code: string, message: string, at = { line: 1, column: 1 }): DocumentCheck {
  return { ok: false, ...(kind ? { kind } : {}), detected: false, diagnostics: [{ severity: "error", source, code, path: "", message, ...at }] };
}

/** Whether `text` is over `limit` bytes in UTF-8, counted no further than the limit. */
function overBytes(text: string, limit: number): boolean {
  // A UTF-16 unit is at most 3 bytes in UTF-8, and at least 1.
  if (text.length * 3 <= limit) return false;
  if (text.length > limit) return true;
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair (4 bytes) is counted 2 + 2.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3;
  }
  return bytes > limit;
}

import { locate, type Diagnostic, type Mode, type Severity } from "../diagnostics.js";
import { OverrideError } from "../errors.js";
import { inspectAgentsJson } from "../loader/load.js";
import type { LoadedAgentsJson } from "../loader/types.js";
import { sourceError, toResolver, type LoadedSources } from "../sources/load-sources.js";
import { loadOpenApiSource } from "../sources/openapi.js";
import type { SourceResolver, SourceResolverOptions } from "../sources/resolver.js";
import { validateAgentsJsonCompat, type Compat } from "../validate.js";
import { lintDocument, reporter } from "./document-rules.js";
import { LINT_RULES, type LintRuleId } from "./rules.js";
import { lintSources, type SourceRuleOptions } from "./source-rules.js";

export interface LintOptions extends SourceRuleOptions {
  /** Severities follow the mode's column of §7 (default `compat`). */
  mode?: Mode;
  /** The file name, for file:line:column (when linting text). */
  file?: string;
  /** Per-rule severity overrides; `"off"` drops the rule. */
  severities?: Partial<Record<LintRuleId | "schema", Severity | "off">>;
  /**
   * Turns on the *src* rules: a resolver (or its options, e.g. `{map: {resend: "./openapi.yaml"}}`)
   * or sources loaded already. Without it only document rules run.
   */
  resolver?: SourceResolver | SourceResolverOptions;
  sources?: LoadedSources;
  /** Where the document lives (file path or URL), for relative source paths; default `file`. */
  location?: string;
}

export interface LintReport {
  /** True when no finding is an error. */
  ok: boolean;
  findings: Diagnostic[];
  counts: { error: number; warning: number; info: number };
}

/**
 * Lints an agents.json document (text, object or a loaded document) with the rules of protocol
 * notes §7. Loader findings (schema errors, deviations, malformed paths) come first; the rules run
 * when the document passes the compat schema.
 */
export async function lintAgentsJson(input: string | object | LoadedAgentsJson, options: LintOptions = {}): Promise<LintReport> {
  const mode = options.mode ?? "compat";
  checkSeverities(options.severities ?? {});
  const value = isLoaded(input) ? input.raw : input;
  const inspection = inspectAgentsJson(value, { mode, ...(options.file === undefined ? {} : { file: options.file }) });
  const sourceText = inspection.source ?? (isLoaded(input) ? input.source : undefined);
  const findings = inspection.source ? [...inspection.diagnostics] : inspection.diagnostics.map((d) => locate(d, sourceText));
  const blocking = inspection.diagnostics.some((d) => d.severity === "error" && (d.code === "schema" || d.code.startsWith("fieldpath-") || d.code === "media-type-key"));
  if (!blocking && validateAgentsJsonCompat(inspection.raw).ok) {
    const doc = inspection.raw as unknown as Compat.AgentsJson;
    const ruleFindings: Diagnostic[] = [];
    const report = reporter(ruleFindings, mode);
    lintDocument(doc, report);
    const location = options.location ?? (isLoaded(input) ? input.location : undefined) ?? options.file;
    if (options.sources) {
      // Sources passed in that lack one of the document's would silently skip its src rules.
      const missing = new Set<string>();
      doc.sources.forEach((source, i) => {
        if (options.sources!.has(source.id) || missing.has(source.id)) return;
        missing.add(source.id);
        report("operation-resolved", ["sources", i, "path"], `source "${source.id}" was not loaded (missing from the sources passed in)`);
      });
      lintSources(doc, options.sources, report, options);
    }
    else if (options.resolver) {
      const { sources, overrideErrors } = await loadForLint(doc, options.resolver, location);
      lintSources(doc, sources, report, options, overrideErrors);
    }
    for (const d of ruleFindings) findings.push(locate(d, sourceText));
  }
  const configured = applySeverities(findings, options.severities ?? {});
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of configured) counts[finding.severity]++;
  return { ok: counts.error === 0, findings: configured, counts };
}

function isLoaded(input: unknown): input is LoadedAgentsJson {
  return typeof input === "object" && input !== null && "document" in input && "raw" in input && "mode" in input;
}

// Every failing override is collected (not just the first), and the source still loads for the other rules.
async function loadForLint(
  doc: Compat.AgentsJson,
  resolverOption: SourceResolver | SourceResolverOptions,
  location: string | undefined,
): Promise<{ sources: LoadedSources; overrideErrors: OverrideError[] }> {
  const resolver = toResolver(resolverOption);
  const sources: LoadedSources = new Map();
  const overrideErrors: OverrideError[] = [];
  for (const source of doc.sources) {
    if (sources.has(source.id)) continue;
    const loaded = await loadOpenApiSource(source, {
      resolver,
      ...(location === undefined ? {} : { documentLocation: location }),
      overrides: doc.overrides ?? [],
      onOverrideError: (error) => overrideErrors.push(error),
    }).catch((error: unknown) => sourceError(source.id, error));
    sources.set(source.id, loaded);
  }
  return { sources, overrideErrors };
}

// Codes the loader reports besides the §7 rules; their severity can be configured too.
const LOADER_CODES = new Set(["schema", "fieldpath-syntax", "fieldpath-unsafe", "media-type-key"]);
const SEVERITY_VALUES = new Set(["error", "warning", "info", "off"]);

// A typo in a rule id or a severity must not pass silently: "eror" would stop an error rule from failing the lint.
function checkSeverities(severities: NonNullable<LintOptions["severities"]>): void {
  for (const [code, severity] of Object.entries(severities as Record<string, unknown>)) {
    if (!Object.hasOwn(LINT_RULES, code) && !LOADER_CODES.has(code)) {
      throw new TypeError(`lint severities: unknown rule "${code}"; rules are ${[...Object.keys(LINT_RULES), ...LOADER_CODES].join(", ")}`);
    }
    if (typeof severity !== "string" || !SEVERITY_VALUES.has(severity)) {
      throw new TypeError(`lint severities["${code}"]: ${JSON.stringify(severity)} is not one of error, warning, info, off`);
    }
  }
}

function applySeverities(findings: Diagnostic[], severities: NonNullable<LintOptions["severities"]>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const finding of findings) {
    const configured = (severities as Record<string, Severity | "off" | undefined>)[finding.code];
    if (configured === "off") continue;
    out.push(configured ? { ...finding, severity: configured } : finding);
  }
  return out;
}

export { LINT_RULES };

import { parseSourceDocument, type SourceDocument, type ValidationIssue } from "@flowspec/runtime";
import { locate, type Diagnostic, type Mode } from "../diagnostics.js";
import { AgentsJsonLoadError, NotAgentsJsonError } from "../errors.js";
import { validateAgentsJson, validateAgentsJsonCompat, type Compat } from "../validate.js";
import { scanDeviations } from "./deviations.js";
import { normalise } from "./normalise.js";
import type { LoadedAgentsJson } from "./types.js";

export interface LoadOptions {
  /** `compat` (default) tolerates the corpus deviations as warnings; `strict` makes them errors. */
  mode?: Mode;
  /** Where the document came from: used in file:line:column and to resolve relative source paths. */
  file?: string;
  /** The text format; by default from the file extension, else sniffed. */
  format?: "json" | "yaml";
}

/** Everything the loader found, whether or not the document loads. */
export interface Inspection {
  ok: boolean;
  mode: Mode;
  diagnostics: Diagnostic[];
  loaded?: LoadedAgentsJson;
  source?: SourceDocument;
  raw: Record<string, unknown>;
}

/**
 * Loads an agents.json document from JSON or YAML text or from an object, in compat (default) or
 * strict mode. Throws `NotAgentsJsonError` for other formats, `DocumentParseError` for syntax
 * errors and `AgentsJsonLoadError` (with every diagnostic) when the document has errors.
 */
export function load(input: string | object, options: LoadOptions = {}): LoadedAgentsJson {
  const inspection = inspectAgentsJson(input, options);
  if (!inspection.loaded) throw new AgentsJsonLoadError(inspection.diagnostics);
  return inspection.loaded;
}

/**
 * Reads a file (Node) and loads it; relative source paths then resolve against the file. The file
 * is read as the runtime's `readTextFile` reads (a regular file of at most 128 MiB, in UTF-8).
 */
export async function loadFile(file: string, options: Omit<LoadOptions, "file"> = {}): Promise<LoadedAgentsJson> {
  const { readTextFile } = await import("@flowspec/runtime/files");
  return load(await readTextFile(file), { ...options, file });
}

/** Runs every loader check and reports the findings without throwing for document errors. */
export function inspectAgentsJson(input: string | object, options: LoadOptions = {}): Inspection {
  const mode = options.mode ?? "compat";
  // Anything else would silently load in compat mode.
  if (mode !== "strict" && mode !== "compat") throw new TypeError(`mode must be "strict" or "compat", not ${JSON.stringify(mode)}`);
  let source: SourceDocument | undefined;
  let value: unknown = input;
  if (typeof input === "string") {
    source = parseSourceDocument(input, { ...(options.file === undefined ? {} : { file: options.file }), ...(options.format ? { format: options.format } : {}) });
    value = source.value;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, "agentsJson")) {
    throw new NotAgentsJsonError(
      `${options.file ?? "the input"} is not an agents.json document: it has no "agentsJson" key at the root` +
        ` (other formats, such as /.well-known/agents.json discovery files, share the name)`,
    );
  }
  const raw = value as Record<string, unknown>;
  const deviations = scanDeviations(raw, mode);
  const schema = mode === "strict" ? validateAgentsJson(raw) : validateAgentsJsonCompat(raw);
  const schemaErrors = schema.ok ? [] : schema.errors.filter((issue) => !explainedBy(issue, deviations)).map(schemaDiagnostic);
  const diagnostics = [...schemaErrors, ...deviations].map((d) => locate(d, source));
  const ok = !diagnostics.some((d) => d.severity === "error");
  const inspection: Inspection = { ok, mode, diagnostics, raw, ...(source ? { source } : {}) };
  if (ok) {
    inspection.loaded = {
      raw: raw as unknown as Compat.AgentsJson,
      document: normalise(raw as unknown as Compat.AgentsJson),
      mode,
      diagnostics,
      ...(options.file === undefined ? {} : { location: options.file }),
      ...(source ? { source } : {}),
    };
  }
  return inspection;
}

function schemaDiagnostic(issue: ValidationIssue): Diagnostic {
  return { code: "schema", severity: "error", path: issue.path, message: issue.message };
}

// In strict mode a deviation is also a schema error at the same pointer; report it once, under its own code.
// Only an error can stand in for a schema error: in compat mode a warning (`enum: "red"` is still not an
// array) must not hide what the compat schema refuses.
function explainedBy(issue: ValidationIssue, deviations: readonly Diagnostic[]): boolean {
  return deviations.some((d) => d.code !== "spec-version" && d.severity === "error" && d.path === issue.path);
}

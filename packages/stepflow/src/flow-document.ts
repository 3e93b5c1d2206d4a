/**
 * Reading flows from text: YAML (1.2 core schema, so timestamps stay strings) or JSON, the
 * generated `Flow` validator (with `schema` required), and the structural `$from`/`$literal` check,
 * each problem located by JSON Pointer and `file:line:column`.
 */
import { parseSourceDocument, type SourceDocument } from "@flowspec/runtime";
import { analyzeFlow } from "./analysis.js";
import { locate, schemaDiagnostics, type Diagnostic } from "./diagnostics.js";
import { InvalidFlowError } from "./engine/errors.js";
import type { Flow } from "./generated/index.js";
import { validateFlow } from "./validate.js";

export interface FlowDocument {
  flow: Flow;
  source: SourceDocument;
}

/**
 * Parses a flow text. Throws `DocumentParseError` (from `@flowspec/runtime`) for a syntax error and
 * `InvalidFlowError` for a document the runtime would reject (each issue with its location).
 */
export function parseFlow(text: string, options: { file?: string; format?: "json" | "yaml" } = {}): FlowDocument {
  // Literals, test inputs and expected outputs keep serde_json's integer/float distinction.
  const source = parseSourceDocument(text, { ...options, keepFloats: true });
  return { flow: readFlow(source.value, source), source };
}

/** Checks a parsed value as a flow document: schema, then the structural reference check. */
export function readFlow(value: unknown, source?: SourceDocument): Flow {
  const validation = validateFlow(value);
  if (!validation.ok) throw new InvalidFlowError(locate(schemaDiagnostics(validation.errors), source));
  const structural: Diagnostic[] = analyzeFlow(validation.value).diagnostics.filter((d) => d.rule === "malformed-reference" || d.rule === "invalid-path");
  if (structural.length > 0) throw new InvalidFlowError(locate(structural, source));
  return validation.value;
}

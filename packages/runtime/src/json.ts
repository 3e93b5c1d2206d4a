/**
 * JSON documents without the YAML parser: `parseSourceDocument` hands JSON texts here, and code
 * that reads only JSON (the `flowspec validate` of many files) imports this alone, through
 * `@flowspec/runtime/json`, and never loads the YAML library.
 */
import { jsonErrorOffset, parsedJsonProblem } from "./json-scan.js";
import { jsonLocator } from "./json-locate.js";
import { parseJsonKeepingFloats } from "./json-numbers.js";
import { lineIndex, offsetLocation } from "./lines.js";
import { DocumentParseError, type SourceDocument, type SourceLocation } from "./source-document.js";

export { DocumentParseError, type SourceDocument, type SourceLocation } from "./source-document.js";

/**
 * The format `parseSourceDocument` reads a text in when none is given: YAML for a `.yaml`/`.yml`
 * file, JSON for a `.json` one, else JSON when the text starts with `{` or `[`.
 */
export function sourceFormat(text: string, file?: string): "json" | "yaml" {
  if (file && /\.ya?ml$/i.test(file)) return "yaml";
  if (file?.endsWith(".json")) return "json";
  // \s takes a byte order mark too.
  return /^\s*[[{]/.test(text) ? "json" : "yaml";
}

/**
 * `parseSourceDocument` for a JSON text: parsed by `JSON.parse` (exact numbers and strings), with
 * a duplicate key or a value nested more than 256 collections deep as a `DocumentParseError`.
 * Locations come from a scan of the text, only for the pointers asked about.
 */
export function parseJsonDocument(text: string, options: { file?: string; keepFloats?: boolean } = {}): SourceDocument {
  const { file } = options;
  // A byte order mark is not content: JSON.parse rejects it, and it would shift line 1's columns.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = options.keepFloats ? parseJsonKeepingFloats(text) : JSON.parse(text);
  } catch (error) {
    throw jsonSyntaxError(error as SyntaxError, text, file);
  }
  const problem = parsedJsonProblem(text, value);
  if (problem) throw new DocumentParseError(problem.reason, file, offsetLocation(text, problem.offset));
  // Made on the first location asked for: a valid document is usually never asked.
  let where: ((pointer: string) => SourceLocation) | undefined;
  return sourceDocument(value, file, "json", (pointer) => {
    if (!where) {
      const find = jsonLocator(text);
      const at = lineIndex(text);
      where = (p) => at(find(p));
    }
    return where(pointer);
  });
}

/** A SourceDocument of `value`, whose locations `locate` finds. */
export function sourceDocument(value: unknown, file: string | undefined, format: "json" | "yaml", locate: (pointer: string) => SourceLocation): SourceDocument {
  return {
    value,
    file,
    format,
    locate,
    describe(pointer) {
      const { line, column } = locate(pointer);
      return `${file ? `${file}:` : ""}${line}:${column}`;
    },
  };
}

function jsonSyntaxError(error: SyntaxError, text: string, file: string | undefined): DocumentParseError {
  const match = /position (\d+)/.exec(error.message);
  // V8's "Unexpected token 'x', "…" is not valid JSON" has no position: find it by scanning.
  const position = match ? Number(match[1]) : jsonErrorOffset(text);
  const location = offsetLocation(text, position);
  const reason = error.message
    .replace(/^JSON\.parse: /, "")
    // " at position 8" (after "…after JSON" too) is the 0-based offset the location already gives.
    .replace(/ (in JSON )?at position \d+.*$/, "")
    // The quoted source text says nothing the location does not, and may be long or secret.
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, "");
  return new DocumentParseError(reason, file, location);
}

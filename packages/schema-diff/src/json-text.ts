import { DocumentParseError, parseSourceDocument } from "@flowspec/runtime";

/** `JSON.parse`; a syntax error names `where:line:column` (located by the runtime's document parser). */
export function parseJsonText(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    try {
      parseSourceDocument(text, { file: where, format: "json" });
    } catch (located) {
      if (located instanceof DocumentParseError) throw new Error(`${where}:${located.location.line}:${located.location.column}: not valid JSON: ${located.reason}`);
    }
    throw new Error(`${where}: not valid JSON: ${(error as Error).message}`);
  }
}

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

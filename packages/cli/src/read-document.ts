import { parseSourceDocument, type SourceDocument } from "@flowspec/runtime";
import { parseText, readText } from "./read-text.js";

export { readText } from "./read-text.js";

/**
 * Reads and parses a JSON or YAML file named on the command line. An unreadable file or a syntax
 * error is a CliError (exit 2) naming the file and, for a syntax error, the parser's position.
 */
export function readDocument(cwd: string, file: string): SourceDocument {
  return parseText(parseSourceDocument, readText(cwd, file), file);
}

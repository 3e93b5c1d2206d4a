import { resolve } from "node:path";
import { DocumentParseError, parseSourceDocument, type SourceDocument } from "@flowspec/runtime";
import { readTextFileSync, unreadableReason } from "@flowspec/runtime/files";
import { CliError } from "./io.js";

/**
 * Reads a UTF-8 file named on the command line (relative to `cwd`), through the runtime's bounded
 * reader: a file it cannot read (missing, not a regular file, over the size limit) or that is not
 * UTF-8 (file:line:column of the first bad byte) is a CliError (exit 2) naming it.
 */
export function readText(cwd: string, file: string): string {
  try {
    return readTextFileSync(resolve(cwd, file), { file });
  } catch (error) {
    if (error instanceof DocumentParseError) throw new CliError(error.message);
    throw new CliError(`${file}: cannot read: ${unreadableReason(error)}`);
  }
}

/**
 * Reads and parses a JSON or YAML file named on the command line. An unreadable file or a syntax
 * error is a CliError (exit 2) naming the file and, for a syntax error, the parser's position.
 */
export function readDocument(cwd: string, file: string): SourceDocument {
  const text = readText(cwd, file);
  try {
    return parseSourceDocument(text, { file });
  } catch (error) {
    if (error instanceof DocumentParseError) throw new CliError(error.message);
    throw error;
  }
}

import { resolve } from "node:path";
import { readTextFileSync, unreadableReason } from "@flowspec/runtime/files";
import { DocumentParseError, type SourceDocument } from "@flowspec/runtime/json";
import { CliError } from "./io.js";

/**
 * Reads a UTF-8 file named on the command line (relative to `cwd`), through the runtime's bounded
 * reader: a file it cannot read (missing, not a regular file, over the size limit) or that is not
 * UTF-8 (file:line:column of the first bad byte) is a CliError (exit 2) naming it.
 */
export function readText(cwd: string, file: string): string {
  try {
    // The system resolves a relative name against the process's folder; resolving it here too
    // cost a tenth of reading a small file.
    return readTextFileSync(cwd === process.cwd() ? file : resolve(cwd, file), { file });
  } catch (error) {
    if (error instanceof DocumentParseError) throw new CliError(error.message);
    throw new CliError(`${file}: cannot read: ${unreadableReason(error)}`);
  }
}

export type ParseDocument = (text: string, options: { file: string }) => SourceDocument;

let yamlParser: Promise<ParseDocument> | undefined;

/**
 * The runtime's `parseSourceDocument`, which reads YAML too, imported on first use: a command that
 * reads JSON files with `parseJsonDocument` never loads the YAML library (loading it cost as much
 * as validating a thousand small files).
 */
export function loadYamlParser(): Promise<ParseDocument> {
  return (yamlParser ??= import("@flowspec/runtime").then((runtime) => runtime.parseSourceDocument));
}

/** `parse(text, { file })`, with a syntax error as a CliError (exit 2) at the parser's position. */
export function parseText(parse: ParseDocument, text: string, file: string): SourceDocument {
  try {
    return parse(text, { file });
  } catch (error) {
    if (error instanceof DocumentParseError) throw new CliError(error.message);
    throw error;
  }
}

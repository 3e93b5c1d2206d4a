import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DocumentParseError, parseSourceDocument, type SourceDocument } from "@flowspec/runtime";
import { CliError } from "./io.js";

/** Reads a file named on the command line (relative to `cwd`); an unreadable file is a CliError (exit 2) naming it. */
export function readText(cwd: string, file: string): string {
  try {
    return readFileSync(resolve(cwd, file), "utf8");
  } catch (error) {
    throw new CliError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
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

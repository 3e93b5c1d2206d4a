import type { Command } from "commander";
import { detectKind, findKind, KINDS, MAIN_KIND, type DocumentKind } from "@flowspec/documents/kinds";
import type { ValidationIssue } from "@flowspec/runtime";
import { parseJsonDocument, sourceFormat, type SourceDocument } from "@flowspec/runtime/json";
import { loadYamlParser, parseText, readText } from "../read-text.js";
import { CliError, colours, EXIT, parseFormat, type CliIo, type Format } from "../io.js";

/** A file that could not be validated at all (unreadable, unparsable, of no known kind). */
interface FileProblem {
  file: string;
  valid: false;
  problem: string;
}

interface FileReport {
  file: string;
  kind: string;
  variant: string;
  detected: boolean;
  valid: boolean;
  errors: (ValidationIssue & { line: number; column: number })[];
  /** Errors found past the validators' cap (100) and left out of `errors`. */
  omittedErrors: number;
}

export function registerValidate(command: Command, io: CliIo, setExit: (code: number) => void): void {
  const kindList = KINDS.map((k) => `  ${k.id.padEnd(46)} variants: ${k.variants.join(", ")}`).join("\n");
  command
    .argument("<files...>", "JSON or YAML files")
    .option("--spec <kind>", "the document kind (spec:Root, or a spec name for its main kind); detected when omitted")
    .option("--variant <name>", "the schema variant (e.g. compat, wire, response); the kind's default when omitted")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Kinds (--spec):
${kindList}
Spec names stand for their main kind: ${Object.entries(MAIN_KIND).map(([s, k]) => `${s} = ${k}`).join(", ")}.

Exit codes: 0 all files valid, 1 any file invalid, 2 usage error or a file that could not be
validated (unreadable, unparsable, of no known kind); the other files are still validated.

Examples:
  flowspec validate flow.yaml
  flowspec validate agents.json --spec agents-json --variant compat
  flowspec validate tree.json --spec apflow:TaskTreeNode --variant wire --format json`,
    )
    .action(async (files: string[], options: { spec?: string; variant?: string; format: string }) => {
      const format = parseFormat(options.format);
      const forced = options.spec === undefined ? undefined : findKind(options.spec);
      if (options.spec !== undefined && !forced) {
        throw new CliError(`unknown --spec "${options.spec}"; one of: ${Object.keys(MAIN_KIND).join(", ")}, ${KINDS.map((k) => k.id).join(", ")}`);
      }
      const reports: (FileReport | FileProblem)[] = [];
      for (const file of files) {
        try {
          const text = readText(io.cwd, file);
          // A YAML file (rare among many) waits for the YAML parser; JSON files are parsed at once.
          const parse = sourceFormat(text, file) === "json" ? parseJsonDocument : await loadYamlParser();
          reports.push(validateDocument(parseText(parse, text, file), file, forced, options.variant));
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          reports.push({ file, valid: false, problem: error.message });
        }
      }
      print(io, format, reports);
      setExit(reports.some((report) => "problem" in report) ? EXIT.usage : reports.every((report) => report.valid) ? EXIT.ok : EXIT.failed);
    });
}

function validateDocument(document: SourceDocument, file: string, forced: DocumentKind | undefined, variantOption: string | undefined): FileReport {
  const kind = forced ?? detectKind(document.value);
  if (!kind) {
    throw new CliError(`${file}: cannot tell which kind of document this is; pass --spec (see flowspec validate --help)`);
  }
  const variant = variantOption ?? kind.defaultVariant;
  if (!kind.variants.includes(variant)) {
    throw new CliError(`--variant "${variant}" does not exist for ${kind.id}; its variants: ${kind.variants.join(", ")}`);
  }
  const result = kind.validate(document.value, variant);
  const errors = result.ok ? [] : result.errors.map((issue) => ({ ...issue, ...document.locate(issue.path) }));
  return { file, kind: kind.id, variant, detected: !forced, valid: result.ok, errors, omittedErrors: result.ok ? 0 : (result.omittedErrors ?? 0) };
}

function print(io: CliIo, format: Format, reports: (FileReport | FileProblem)[]): void {
  if (format === "json") {
    io.stdout.write(JSON.stringify({ valid: reports.every((r) => r.valid), files: reports }, null, 2) + "\n");
    return;
  }
  const c = colours(io);
  // Lines are gathered and written in pieces of about 64 KiB: a write per line cost more than
  // validating a small file. A problem goes to stderr after the lines before it.
  let out = "";
  const flush = () => {
    if (out !== "") io.stdout.write(out);
    out = "";
  };
  for (const report of reports) {
    if ("problem" in report) {
      flush();
      io.stderr.write(`flowspec: ${report.problem}\n`);
      continue;
    }
    const how = `${report.kind} (${report.variant}${report.detected ? ", detected" : ""})`;
    out += report.valid ? `${c.green("valid")}   ${report.file}: ${how}\n` : `${c.red("invalid")} ${report.file}: ${how}\n`;
    for (const error of report.errors) {
      out += `  ${report.file}:${error.line}:${error.column} ${c.dim(error.path || "/")}: ${error.message}\n`;
    }
    if (report.omittedErrors > 0) out += `  ${report.file}: … and ${report.omittedErrors} more\n`;
    if (out.length >= 65_536) flush();
  }
  flush();
}

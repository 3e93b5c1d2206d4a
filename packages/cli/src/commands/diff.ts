import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { diffSchemas, type DiffReport, type SchemaChange, type Witness } from "@flowspec/schema-diff";
import { CliError, colours, EXIT, parseFormat, type CliIo } from "../io.js";

const FAIL_ON = ["reader", "writer", "both", "none"] as const;
type FailOn = (typeof FAIL_ON)[number];

/**
 * Whether a change fails the run: `reader` guards readers upgraded to NEW (old documents must
 * still pass), `writer` guards readers still on OLD (documents of writers upgraded to NEW must
 * still pass), `both` guards both. A code break (a removed definition or schema file: its
 * generated type is gone) fails under every guard but `none`, unless `--ignore-code-breaks`:
 * whoever upgrades to NEW's generated code, reader or writer, no longer compiles if they import it.
 */
function fails(change: SchemaChange, failOn: FailOn, failOnCode: boolean): boolean {
  const { forNewReader, forOldReader, forCode } = change.breaking;
  if (failOn === "none") return false;
  if (forCode && failOnCode) return true;
  return failOn === "both" ? forNewReader || forOldReader : failOn === "reader" ? forNewReader : forOldReader;
}

export function registerDiff(command: Command, io: CliIo, setExit: (code: number) => void): void {
  command
    .argument("<old>", "the old schema: a file (its $ref'd siblings are followed) or a folder of schemas")
    .argument("<new>", "the new schema, of the same form")
    .option("--fail-on <direction>", "reader, writer, both or none: which breaking changes exit 1", "both")
    .option("--format <format>", "text or json", "text")
    .option("--no-annotations", "leave out title/description/default/examples changes")
    .option("--ignore-code-breaks", "do not fail on a removed definition or schema file (its generated type is gone, no document changes): for users who validate documents and import no generated types")
    .option("--strict", "count a typed property added to (or removed from) an object that allows undeclared properties as breaking")
    .option("--witness", "for each breaking change, search a document that shows it (OLD accepts and NEW rejects, or the reverse), validated with ajv; none found marks the change unproven")
    .addHelpText(
      "after",
      `
Directions:
  reader  breaking for code generated from NEW that reads documents written against OLD
          (a new required property, a narrowed type, a removed enum value...)
  writer  breaking for code generated from OLD that reads documents written against NEW
          (a widened type, an added enum value, a property no longer required...)
  both    either of the two (the default)
  none    report only
  A code break (a definition or schema file removed: its generated type and import are gone, no
  document's verdict changes) fails under reader, writer and both, unless --ignore-code-breaks.

Convention: a property added to an object that allows undeclared properties breaks no one by
default (writers write only what their schema declares); --strict counts the documents that already
carry that name with a value the new property schema refuses.

Folders are compared file by file (paired by relative path, then by $id). $refs resolve to local
files only; nothing is fetched.

Exit codes: 0 no breaking change for --fail-on (nor a code break, unless --ignore-code-breaks),
1 a breaking change for --fail-on or a code break, 2 usage error or an unreadable schema.

A keyword no JSON Schema dialect defines (unknown-keyword-changed) is shown but breaks nothing:
validators ignore it, though a custom vocabulary may give it a meaning.

Examples:
  flowspec diff schemas-v1/invoice.json schemas/invoice.json
  flowspec diff pinned/ schemas/ --fail-on reader
  git show main:schema.json > /tmp/old.json && flowspec diff /tmp/old.json schema.json --format json
  flowspec diff old.json new.json --strict --witness`,
    )
    .action((oldPath: string, newPath: string, options: { failOn: string; format: string; annotations: boolean; ignoreCodeBreaks?: boolean; strict?: boolean; witness?: boolean }) => {
      const format = parseFormat(options.format);
      if (!(FAIL_ON as readonly string[]).includes(options.failOn)) throw new CliError(`--fail-on must be one of ${FAIL_ON.join(", ")}, not "${options.failOn}"`);
      const failOn = options.failOn as FailOn;
      let report: DiffReport;
      try {
        report = diffSchemas(resolve(io.cwd, oldPath), resolve(io.cwd, newPath), { annotations: options.annotations, strict: options.strict ?? false, witness: options.witness ?? false });
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      const failOnCode = !options.ignoreCodeBreaks;
      const isFailing = (change: SchemaChange) => fails(change, failOn, failOnCode);
      const failing = report.changes.filter(isFailing).length;
      if (format === "json") {
        io.stdout.write(JSON.stringify({ old: oldPath, new: newPath, failOn, failOnCode, failed: failing > 0, summary: report.summary, changes: report.changes }, null, 2) + "\n");
      } else {
        printText(io, oldPath, newPath, report, failOn, isFailing, failing, options.strict ?? false);
      }
      setExit(failing > 0 ? EXIT.failed : EXIT.ok);
    });
}

/** `file#pointer`; the compared files themselves go without a name (the header names them). */
function where(file: string, pointer: string): string {
  return `${file}#${pointer}`;
}

function printText(io: CliIo, oldPath: string, newPath: string, report: DiffReport, failOn: FailOn, isFailing: (change: SchemaChange) => boolean, failing: number, strict: boolean): void {
  const c = colours(io);
  io.stdout.write(`${c.bold("OLD")} ${oldPath}\n${c.bold("NEW")} ${newPath}\n`);
  for (const change of report.changes) {
    const { forNewReader, forOldReader, forCode } = change.breaking;
    const label = forNewReader && forOldReader ? "breaks both" : forNewReader ? "breaks new readers" : forOldReader ? "breaks old readers" : forCode ? "breaks code" : "compatible";
    const paint = isFailing(change) ? c.red : forNewReader || forOldReader || forCode ? c.yellow : c.dim;
    const oldAt = where(change.fileOld === basename(oldPath) ? "" : change.fileOld, change.pointerOld);
    const newAt = where(change.fileNew === basename(newPath) ? "" : change.fileNew, change.pointerNew);
    const at = oldAt === newAt ? oldAt : `${oldAt} -> ${newAt}`;
    io.stdout.write(`${paint(label.padEnd(18))} ${change.kind.padEnd(31)} ${c.dim(at)}\n${" ".repeat(19)}${change.message}\n`);
    for (const [direction, witness] of [["new readers", change.witness?.forNewReader], ["old readers", change.witness?.forOldReader]] as const) {
      if (witness) io.stdout.write(`${" ".repeat(19)}${witnessLine(direction, witness)}\n`);
    }
  }
  const { changes, breakingForNewReader, breakingForOldReader, breakingForCode } = report.summary;
  io.stdout.write(
    `${changes} change(s): ${breakingForNewReader} breaking for new readers (code generated from NEW reading OLD documents), ` +
      `${breakingForOldReader} breaking for old readers (code generated from OLD reading NEW documents), ` +
      `${breakingForCode} breaking for code (a generated type removed).\n`,
  );
  const { proven, unproven } = report.summary;
  if (proven !== undefined) io.stdout.write(`Witnesses: ${proven} breaking flag(s) shown by a document, ${unproven} unproven (no document found in a bounded search).\n`);
  const onlyUnderStrict = report.changes.filter((change) => change.onlyUnderStrict).length;
  if (!strict && onlyUnderStrict > 0) {
    io.stdout.write(
      c.dim(
        `${onlyUnderStrict} change(s) add or remove a typed property of an object that allows undeclared properties. By convention they break no one ` +
          `(writers write only the properties their schema declares), but documents may already carry such a name with a value the property's schema refuses: --strict counts them as breaking.\n`,
      ),
    );
  }
  io.stdout.write(failing > 0 ? c.red(`--fail-on ${failOn}: ${failing} breaking change(s); exit 1.\n`) : c.green(`--fail-on ${failOn}: nothing breaking; exit 0.\n`));
}

/** One line for a witness: the document (shortened) and the error of the side that rejects it, or why none was found. */
function witnessLine(direction: string, witness: Witness): string {
  if (!witness.proven) return `unproven for ${direction}: ${witness.reason}`;
  const text = JSON.stringify(witness.document);
  const document = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return `witness for ${direction}: ${document}${witness.schema ? ` (against ${witness.schema})` : ""}, rejected at ${witness.error}`;
}

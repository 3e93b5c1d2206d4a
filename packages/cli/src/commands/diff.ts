import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { diffSchemas, type DiffReport, type SchemaChange } from "@flowspec/schema-diff";
import { CliError, colours, EXIT, parseFormat, type CliIo } from "../io.js";

const FAIL_ON = ["reader", "writer", "both", "none"] as const;
type FailOn = (typeof FAIL_ON)[number];

/**
 * Whether a change fails the run: `reader` guards readers upgraded to NEW (old documents must
 * still pass), `writer` guards readers still on OLD (documents of writers upgraded to NEW must
 * still pass), `both` guards both.
 */
function fails(change: SchemaChange, failOn: FailOn): boolean {
  const { forNewReader, forOldReader } = change.breaking;
  return failOn === "both" ? forNewReader || forOldReader : failOn === "reader" ? forNewReader : failOn === "writer" ? forOldReader : false;
}

export function registerDiff(command: Command, io: CliIo, setExit: (code: number) => void): void {
  command
    .argument("<old>", "the old schema: a file (its $ref'd siblings are followed) or a folder of schemas")
    .argument("<new>", "the new schema, of the same form")
    .option("--fail-on <direction>", "reader, writer, both or none: which breaking changes exit 1", "both")
    .option("--format <format>", "text or json", "text")
    .option("--no-annotations", "leave out title/description/default/examples changes")
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

Folders are compared file by file (paired by relative path, then by $id). $refs resolve to local
files only; nothing is fetched.

Exit codes: 0 no breaking change for --fail-on, 1 a breaking change for --fail-on, 2 usage error
or an unreadable schema.

Examples:
  flowspec diff schemas-v1/invoice.json schemas/invoice.json
  flowspec diff pinned/ schemas/ --fail-on reader
  git show main:schema.json > /tmp/old.json && flowspec diff /tmp/old.json schema.json --format json`,
    )
    .action((oldPath: string, newPath: string, options: { failOn: string; format: string; annotations: boolean }) => {
      const format = parseFormat(options.format);
      if (!(FAIL_ON as readonly string[]).includes(options.failOn)) throw new CliError(`--fail-on must be one of ${FAIL_ON.join(", ")}, not "${options.failOn}"`);
      const failOn = options.failOn as FailOn;
      let report: DiffReport;
      try {
        report = diffSchemas(resolve(io.cwd, oldPath), resolve(io.cwd, newPath), { annotations: options.annotations });
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      const failing = report.changes.filter((change) => fails(change, failOn)).length;
      if (format === "json") {
        io.stdout.write(JSON.stringify({ old: oldPath, new: newPath, failOn, failed: failing > 0, summary: report.summary, changes: report.changes }, null, 2) + "\n");
      } else {
        printText(io, oldPath, newPath, report, failOn, failing);
      }
      setExit(failing > 0 ? EXIT.failed : EXIT.ok);
    });
}

/** `file#pointer`; the compared files themselves go without a name (the header names them). */
function where(file: string, pointer: string): string {
  return `${file}#${pointer}`;
}

function printText(io: CliIo, oldPath: string, newPath: string, report: DiffReport, failOn: FailOn, failing: number): void {
  const c = colours(io);
  io.stdout.write(`${c.bold("OLD")} ${oldPath}\n${c.bold("NEW")} ${newPath}\n`);
  for (const change of report.changes) {
    const { forNewReader, forOldReader } = change.breaking;
    const label = forNewReader && forOldReader ? "breaks both" : forNewReader ? "breaks new readers" : forOldReader ? "breaks old readers" : "compatible";
    const paint = fails(change, failOn) ? c.red : forNewReader || forOldReader ? c.yellow : c.dim;
    const oldAt = where(change.fileOld === basename(oldPath) ? "" : change.fileOld, change.pointerOld);
    const newAt = where(change.fileNew === basename(newPath) ? "" : change.fileNew, change.pointerNew);
    const at = oldAt === newAt ? oldAt : `${oldAt} -> ${newAt}`;
    io.stdout.write(`${paint(label.padEnd(18))} ${change.kind.padEnd(31)} ${c.dim(at)}\n${" ".repeat(19)}${change.message}\n`);
  }
  const { changes, breakingForNewReader, breakingForOldReader } = report.summary;
  io.stdout.write(
    `${changes} change(s): ${breakingForNewReader} breaking for new readers (code generated from NEW reading OLD documents), ` +
      `${breakingForOldReader} breaking for old readers (code generated from OLD reading NEW documents).\n`,
  );
  io.stdout.write(failing > 0 ? c.red(`--fail-on ${failOn}: ${failing} breaking change(s); exit 1.\n`) : c.green(`--fail-on ${failOn}: nothing breaking; exit 0.\n`));
}

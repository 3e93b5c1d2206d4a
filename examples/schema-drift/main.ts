/**
 * Schema drift, as a library call: the billing schemas of examples/codegen-other-repo against an
 * edited copy (in memory), with every change classified for both directions. This is what
 * `flowspec diff OLD NEW --fail-on reader|writer` gates on in CI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { diffSchemas, type SchemaChange } from "@flowspec/codegen";

const folder = new URL("../codegen-other-repo/schemas/", import.meta.url);
const files = Object.fromEntries(
  readdirSync(folder)
    .filter((name) => name.endsWith(".json") && name !== "codegen.json")
    .map((name) => [name, JSON.parse(readFileSync(new URL(name, folder), "utf8"))]),
);

// The next version of the API, as a pull request might change it.
const next = structuredClone(files);
next["invoice.json"].properties.status.enum.push("uncollectible"); // a new status
next["invoice.json"].required.push("dueDate"); // every invoice must now have a due date
next["invoice.json"].properties.memo.maxLength = 2000; // longer memos
next["common.json"].definitions.currency.enum = ["EUR", "USD"]; // GBP dropped

const report = diffSchemas(fileURLToPath(folder), { files: next });
const direction = (c: SchemaChange) =>
  c.breaking.forNewReader && c.breaking.forOldReader ? "breaks both" : c.breaking.forNewReader ? "breaks new readers" : c.breaking.forOldReader ? "breaks old readers" : c.breaking.forCode ? "breaks code" : "compatible";
for (const change of report.changes) {
  console.log(`${direction(change).padEnd(18)} ${change.kind.padEnd(20)} ${change.fileNew}#${change.pointerNew}\n${" ".repeat(19)}${change.message}`);
}
const { breakingForNewReader, breakingForOldReader } = report.summary;
console.log(`\n${report.summary.changes} changes.`);
console.log(`--fail-on reader (old documents read by the new code): ${breakingForNewReader > 0 ? `would fail, ${breakingForNewReader} breaking` : "passes"}`);
console.log(`--fail-on writer (new documents read by the old code): ${breakingForOldReader > 0 ? `would fail, ${breakingForOldReader} breaking` : "passes"}`);

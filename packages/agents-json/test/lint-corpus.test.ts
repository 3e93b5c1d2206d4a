import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintAgentsJson, load } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";
import { corpusTable, countByCode } from "./corpus-table.js";

const dir = corpusDir("agents-json");
const read = (file: string) => readFileSync(join(dir, file), "utf8");
const key = (d: { code: string; path: string }) => `${d.code} ${d.path}`;

describe("corpus: lint (protocol notes §7, §8)", () => {
  it.each(corpusTable)("$file: the Lint column", async ({ file, lint }) => {
    const report = await lintAgentsJson(read(file), { file });
    // The Lint column is what remains once the loader's deviations (the Deviations column) are set aside.
    const deviations = new Set(load(read(file), { file }).diagnostics.filter((d) => d.code !== "spec-version").map(key));
    const rest = report.findings.filter((d) => !deviations.has(key(d)));
    expect(countByCode(rest)).toEqual(lint);
    expect(report.findings.every((d) => d.file === file && d.line! > 0 && d.column! > 0)).toBe(true);
  });

  it.each(corpusTable.filter((row) => row.openapi))("$file: src rules against $openapi", async ({ file, openapi, src }) => {
    const sourceId = load(read(file)).document.sources[0]!.id;
    const withSources = await lintAgentsJson(read(file), { file, resolver: { map: { [sourceId]: join(dir, openapi!) } } });
    const without = new Set((await lintAgentsJson(read(file), { file })).findings.map(key));
    expect(countByCode(withSources.findings.filter((d) => !without.has(key(d))))).toEqual(src);
  });

  it("uses the strict column of severities in strict mode", async () => {
    const report = await lintAgentsJson(read("agents_json__stripe__agents.json"), { mode: "strict" });
    const severities = new Set(report.findings.filter((d) => d.code === "additional-properties-key").map((d) => d.severity));
    expect([...severities]).toEqual(["error"]);
    expect(report.ok).toBe(false);
  });

  it("honours configured severities", async () => {
    const report = await lintAgentsJson(read("agents_json__slack__agents.json"), { severities: { "id-snake-case": "error" } });
    expect(report.findings.map((d) => d.severity)).toEqual(["error", "error", "error", "error"]);
    expect(report.ok).toBe(false);
    const off = await lintAgentsJson(read("agents_json__slack__agents.json"), { severities: { "id-snake-case": "off" } });
    expect(off.findings).toEqual([]);
    expect(off.ok).toBe(true);
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentsJsonLoadError, load } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";
import { corpusTable, countByCode } from "./corpus-table.js";

const dir = corpusDir("agents-json");
const read = (file: string) => readFileSync(join(dir, file), "utf8");

describe("corpus: load (protocol notes §8)", () => {
  it.each(corpusTable)("$file loads in compat mode with the table's deviations", ({ file, deviations }) => {
    const loaded = load(read(file), { file });
    expect(loaded.mode).toBe("compat");
    const warnings = loaded.diagnostics.filter((d) => d.code !== "spec-version");
    expect(warnings.every((d) => d.severity === "warning")).toBe(true);
    expect(countByCode(warnings)).toEqual(deviations);
    for (const d of loaded.diagnostics) expect(d.line).toBeGreaterThan(0);
  });

  it.each(corpusTable)("$file: strict verdict", ({ file, strict, deviations }) => {
    if (strict) {
      expect(load(read(file), { file, mode: "strict" }).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      return;
    }
    let error: unknown;
    try {
      load(read(file), { file, mode: "strict" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AgentsJsonLoadError);
    const errors = (error as AgentsJsonLoadError).diagnostics.filter((d) => d.severity === "error");
    // Every strict error is one of the table's deviations (schema errors they explain are not repeated).
    expect(countByCode(errors)).toEqual(deviations);
  });
});

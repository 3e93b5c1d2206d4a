import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTask, checkTaskTree } from "@flowspec/apflow";
import { corpusDir, repoRoot } from "../../../test/support.js";

interface Block { upstream_path: string; first_line: number; raw: string }
const blocks = (JSON.parse(readFileSync(join(corpusDir("apflow"), "derived/docs__protocol__json-blocks.json"), "utf8")) as { blocks: Block[] }).blocks;
const dataModel = (line: number) => JSON.parse(blocks.find((b) => b.upstream_path.endsWith("03-data-model.md") && b.first_line === line)!.raw);

/**
 * The v1 repository's copy of the Data Model page differs from the page the SDK implements in
 * exactly the ways notes §1 lists; this test fails if either side drifts further.
 */
describe("Data Model page: v1 repository copy vs the vendored schema (notes §1)", () => {
  const vendored = JSON.parse(readFileSync(join(repoRoot, "schemas/apflow/task.json"), "utf8"));
  const v1 = dataModel(98);
  const extraV1Fields = ["origin_type", "original_task_id", "has_references", "schedule_type", "schedule_expression", "schedule_enabled", "schedule_start_at", "schedule_end_at", "next_run_at", "last_run_at", "max_runs", "run_count"];

  it("has the same top level and the same Dependency definition", () => {
    expect(Object.keys(v1).sort()).toEqual(Object.keys(vendored).sort());
    expect(v1.required).toEqual(vendored.required);
    expect(v1.definitions).toEqual(vendored.definitions);
  });
  it("adds only the origin and scheduling fields", () => {
    const added = Object.keys(v1.properties).filter((key) => !(key in vendored.properties));
    expect(added.sort()).toEqual([...extraV1Fields].sort());
    expect(Object.keys(vendored.properties).filter((key) => !(key in v1.properties))).toEqual([]);
  });
  it("differs only in error (not nullable) and schemas (a sub-schema)", () => {
    const changed = Object.keys(vendored.properties).filter((key) => JSON.stringify(v1.properties[key]) !== JSON.stringify(vendored.properties[key]));
    expect(changed.sort()).toEqual(["error", "schemas"]);
    expect(v1.properties.error.type).toBe("string");
    expect(vendored.properties.error.type).toEqual(["string", "null"]);
    expect(v1.properties.schemas.required).toEqual(["method"]);
    expect(v1.properties.schemas.properties.type.enum).toEqual(["local", "remote", "external"]);
    expect(vendored.properties.schemas).toEqual({ type: ["object", "null"], description: vendored.properties.schemas.description });
  });
  it("accepts both Complete Task Examples in wire mode (their extra fields are v1 extensions)", () => {
    for (const line of [298, 436]) {
      const result = checkTask(dataModel(line), { mode: "wire" });
      expect(result.errors).toEqual([]);
      expect(result.warnings.filter((w) => w.code === "unknown-field")).toEqual([]);
    }
  });
  it("accepts the Tree Serialization Format example in wire mode", () => {
    expect(checkTaskTree(dataModel(671), { mode: "wire" }).errors).toEqual([]);
  });
});

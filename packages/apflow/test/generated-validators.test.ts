import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateDependency, validateDependencyWire, validateTask, validateTaskTreeNode, validateTaskTreeNodeWire, validateTaskWire } from "../src/index.js";
import { corpusDir } from "../../../test/support.js";

interface Block {
  upstream_path: string;
  first_line: number;
  raw: string;
}
const { blocks } = JSON.parse(readFileSync(join(corpusDir("apflow"), "derived", "docs__protocol__json-blocks.json"), "utf8")) as { blocks: Block[] };
const block = (firstLine: number) => blocks.find((b) => b.upstream_path === "docs/protocol/05-examples.md" && b.first_line === firstLine)!.raw;
const keywords = (result: { ok: boolean; errors?: { keyword: string; path: string }[] }) =>
  result.ok ? [] : result.errors!.map((e) => `${e.keyword} ${e.path}`);

// The schema layer of the apflow notes' corpus table (§7): strict enforces uuid and date-time,
// wire ignores them (the semantic checks report them as warnings there).
describe("apflow doc blocks against the generated validators", () => {
  it("853 Valid Task Definition: valid in both modes", () => {
    const task = JSON.parse(block(853));
    expect(keywords(validateTask(task))).toEqual([]);
    expect(keywords(validateTaskWire(task))).toEqual([]);
  });

  it("873 Missing Required Field: not JSON; without its comment, id and status are missing", () => {
    expect(() => JSON.parse(block(873))).toThrow(SyntaxError);
    const task = JSON.parse(block(873).replace(/^\s*\/\/.*$/m, ""));
    for (const validate of [validateTask, validateTaskWire]) {
      expect(keywords(validate(task))).toEqual(["required /id", "required /status"]);
    }
  });

  it("884 Invalid UUID Format: invalid in strict (uuid), valid on the wire", () => {
    const task = JSON.parse(block(884));
    expect(keywords(validateTask(task))).toEqual(["format /id"]);
    expect(keywords(validateTaskWire(task))).toEqual([]);
  });

  it.each([
    [896, "enum /status"],
    [908, "maximum /priority"],
  ])("%i is invalid in both modes (%s)", (line, expected) => {
    const task = JSON.parse(block(line));
    expect(keywords(validateTask(task))).toEqual([expected]);
    expect(keywords(validateTaskWire(task))).toEqual([expected]);
  });

  it("942 Empty Task Tree: a TaskTreeNode invalid in strict only by its uuid", () => {
    const tree = JSON.parse(block(942));
    expect(keywords(validateTaskTreeNode(tree))).toEqual(["format /task/id"]);
    expect(keywords(validateTaskTreeNodeWire(tree))).toEqual([]);
  });

  it("957 Task with Many Dependencies: its dependency items fail uuid in strict only", () => {
    const { dependencies } = JSON.parse(block(957)) as { dependencies: unknown[] };
    expect(dependencies).toHaveLength(5);
    for (const dependency of dependencies) {
      expect(keywords(validateDependency(dependency))).toEqual(["format /id"]);
      expect(keywords(validateDependencyWire(dependency))).toEqual([]);
    }
  });

  it("TaskTreeNode is closed and recursive", () => {
    const id = "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d";
    const tree = { task: { id, name: "r", status: "pending" }, children: [{ task: { id, name: "c", status: "done" }, children: [] }], extra: 1 };
    expect(keywords(validateTaskTreeNode(tree))).toEqual(["additionalProperties /extra", "enum /children/0/task/status"]);
  });
});

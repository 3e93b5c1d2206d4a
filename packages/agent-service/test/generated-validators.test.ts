import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { upgradeCreateRunBody, validateCreateRunCommand, validateRun, validateRunResponse, validateSequencedOutputEnvelope, validateSequencedOutputEnvelopeResponse } from "../src/index.js";
import { corpusDir, repoRoot } from "../../../test/support.js";

const example = JSON.parse(readFileSync(join(corpusDir("agent-service"), "spec/v1/examples/commands/create-run.json"), "utf8"));
const run = (overrides: Record<string, unknown> = {}) => ({
  runId: "run-1",
  orgId: "org-1",
  resourceType: "tool",
  resourceId: "tool-1",
  input: { mode: "tool", arguments: { q: 1 } },
  attempts: [],
  eventSequence: 0,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
  ...overrides,
});
const where = (result: { ok: boolean; errors?: { keyword: string; path: string }[] }) =>
  result.ok ? [] : result.errors!.map((e) => `${e.keyword} ${e.path}`);

describe("the corpus create-run example (an older spec generation)", () => {
  it("fails at /input as the notes predict: no mode, and a tools property", () => {
    const errors = where(validateCreateRunCommand(example));
    expect(errors[0]).toBe("inputMode /input/mode");
    expect(errors).toContain("required /input/mode");
    expect(errors).toContain("additionalProperties /input/tools");
  });

  it("validates once upgraded by upgradeCreateRunBody", () => {
    const upgraded = upgradeCreateRunBody(example);
    expect(where(validateCreateRunCommand(upgraded))).toEqual([]);
    expect(upgraded.input).toMatchObject({ mode: "agent", ephemeralTools: example.input.tools });
    expect(upgraded.input).not.toHaveProperty("tools");
    expect(example.input).toHaveProperty("tools"); // the original is left untouched
  });
});

describe("Run", () => {
  it("validates a minimal run of each resource type", () => {
    expect(where(validateRun(run()))).toEqual([]);
    expect(where(validateRun(run({ resourceType: "agent", input: { mode: "agent", messages: [] } })))).toEqual([]);
    expect(where(validateRun(run({ resourceType: "mcp_server", input: { mode: "mcp_server", clientInfo: {}, clientCapabilities: {} } })))).toEqual([]);
  });

  it("reports a mode that does not match resourceType first, in one sentence", () => {
    const result = validateRun(run({ input: { mode: "agent", messages: [] } }));
    expect(!result.ok && result.errors[0]).toEqual({
      path: "/input/mode",
      message: 'resourceType "tool" requires input.mode "tool", got "agent"',
      keyword: "inputMode",
      params: { resourceType: "tool", mode: "agent" },
    });
  });

  it("the response variant accepts unknown values of provisional enums only", () => {
    expect(where(validateRun(run({ status: "paused" })))).toEqual(["enum /status"]);
    expect(where(validateRunResponse(run({ status: "paused" })))).toEqual([]);
    // taskResourceType is a confirmed, closed enum in both variants.
    expect(where(validateRunResponse(run({ resourceType: "workflow" })))).toContain("enum /resourceType");
  });

  it("the stream envelope accepts unknown event types in the response variant only", () => {
    const envelope = { runId: "r", threadId: "t", sequence: 1, event: { type: "run.paused", eventId: "e", createdAt: "2025-01-01T00:00:00Z" } };
    expect(where(validateSequencedOutputEnvelope(envelope))).toEqual(["enum /event/type"]);
    expect(where(validateSequencedOutputEnvelopeResponse(envelope))).toEqual([]);
  });
});

describe("the response overlay", () => {
  it("removes exactly the enums of the nodes marked x-provisional", () => {
    const dir = join(repoRoot, "schemas", "agent-service");
    const marked: string[] = [];
    const walk = (node: unknown, file: string, pointer: string) => {
      if (typeof node !== "object" || node === null) return;
      const record = node as Record<string, unknown>;
      if (record["x-provisional"] === true && Array.isArray(record.enum)) marked.push(`${file}#${pointer}/enum`);
      for (const [key, child] of Object.entries(record)) walk(child, file, `${pointer}/${key}`);
    };
    for (const file of (readdirSync(dir, { recursive: true }) as string[]).map((f) => f.split("\\").join("/"))) {
      if (file.endsWith(".json") && !file.startsWith("overlays/") && file !== "codegen.json") {
        walk(JSON.parse(readFileSync(join(dir, file), "utf8")), file, "");
      }
    }
    const overlay = JSON.parse(readFileSync(join(dir, "overlays", "response.json"), "utf8")) as { patches: Record<string, { op: string; path: string }[]> };
    const removed = Object.entries(overlay.patches).flatMap(([file, ops]) => ops.map((op) => `${file}#${op.path}`));
    expect(Object.values(overlay.patches).flat().every((op) => op.op === "remove")).toBe(true);
    expect(removed.sort()).toEqual(marked.sort());
    expect(marked).toHaveLength(7);
  });
});

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintAgentsJson, loadFile, loadSources, resolveLocation, type OpenApiSource } from "@flowspec/agents-json";

const fixtures = join(import.meta.dirname, "fixtures");

describe("loadFile and local source resolution", () => {
  it("reads a YAML file and resolves its relative source path against it with the default resolver", async () => {
    const loaded = await loadFile(join(fixtures, "widgets.agents.yaml"), { mode: "strict" });
    expect(loaded.location).toBe(join(fixtures, "widgets.agents.yaml"));
    expect(loaded.document.flows.map((f) => f.id)).toEqual(["status_flow"]);
    const source = (await loadSources(loaded)).get("widgets") as OpenApiSource;
    expect(source.location).toBe(join(fixtures, "widgets.openapi.yaml"));
    expect([...source.operations.keys()]).toEqual(["get_widget", "create_widget", "put_note", "get_status"]);
    expect((await lintAgentsJson(loaded, { mode: "strict", resolver: {} })).findings).toEqual([]);
  });

  it("rejects a missing file with the file system's error", async () => {
    await expect(loadFile(join(fixtures, "missing.json"))).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ["openapi.yaml", "/docs/agents.json", "/docs/openapi.yaml"],
    ["../specs/a.json", "https://example.com/x/agents.json", "https://example.com/specs/a.json"],
    ["https://api.example.com/openapi.json", "/docs/agents.json", "https://api.example.com/openapi.json"],
    ["/abs/openapi.yaml", "/docs/agents.json", "/abs/openapi.yaml"],
    ["openapi.yaml", undefined, "openapi.yaml"],
  ])("resolveLocation(%s, %s) = %s", (path, base, expected) => {
    expect(resolveLocation(path, base)).toBe(expected);
  });
});

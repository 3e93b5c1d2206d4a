import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffSchemas } from "@flowspec/codegen";
import { readSchemaFiles } from "@flowspec/schema-diff/schema-files";
import { applyOverlays, readOverlay } from "../src/schema-set.js";
import { repoRoot } from "../../test/support.js";

const brief = (report: ReturnType<typeof diffSchemas>) =>
  report.changes.map((c) => ({ kind: c.kind, pointerOld: c.pointerOld, pointerNew: c.pointerNew, newReader: c.breaking.forNewReader, oldReader: c.breaking.forOldReader }));

// A codegen overlay is a schema change like any other: the diff (re-exported here) must see what it does.
describe("diffSchemas on a codegen overlay", () => {
  it("stepflow: the runtime overlay makes Flow.schema required and protocol_prefix optional", () => {
    const dir = join(repoRoot, "schemas/stepflow");
    const files = readSchemaFiles(dir, "stepflow");
    const patched = applyOverlays(files, [readOverlay(dir, "overlays/runtime.json")]);
    const report = diffSchemas(files[0]!.json, patched[0]!.json);
    expect(brief(report)).toEqual([
      { kind: "property-added", pointerOld: "/$defs/Flow", pointerNew: "/$defs/Flow/properties/schema", newReader: false, oldReader: false },
      { kind: "required-added", pointerOld: "/$defs/Flow/required", pointerNew: "/$defs/Flow/required", newReader: true, oldReader: false },
      { kind: "required-removed", pointerOld: "/$defs/InitializeParams/required", pointerNew: "/$defs/InitializeParams/required", newReader: false, oldReader: true },
      { kind: "property-added", pointerOld: "/$defs/TestConfig", pointerNew: "/$defs/TestConfig/properties/config", newReader: false, oldReader: false },
      { kind: "property-added", pointerOld: "/$defs/TestConfig", pointerNew: "/$defs/TestConfig/properties/servers", newReader: false, oldReader: false },
      { kind: "def-added", pointerOld: "", pointerNew: "/$defs/TestServerConfig", newReader: false, oldReader: false },
    ]);
    expect(report.changes[1]!.message).toContain('"schema" is now required');
  });

});

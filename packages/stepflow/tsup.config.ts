import { defineConfig } from "tsup";
import { VALIDATE_ENTRY, withStandaloneEntry } from "../../scripts/tsup-standalone-entry.js";

// `/validate` is one file that imports only runtime's `/validation`.
export default defineConfig(withStandaloneEntry({
  entry: { index: "src/index.ts", validate: "src/validate.ts", flow: "src/flow.ts", node: "src/node.ts", server: "src/server/index.ts", client: "src/client/index.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks (the generated validators, the engine) instead of each bundling a copy:
  // one copy to load, and one identity for every class (instanceof works across subpaths).
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
}, VALIDATE_ENTRY));

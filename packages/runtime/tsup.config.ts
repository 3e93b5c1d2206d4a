import { defineConfig } from "tsup";
import { withStandaloneEntry } from "../../scripts/tsup-standalone-entry.js";

// `/validation` is one file: every generated validator imports it at start-up.
export default defineConfig(withStandaloneEntry({
  entry: { index: "src/index.ts", validation: "src/validation.ts", ajv: "src/ajv.ts", jsonrpc: "src/jsonrpc/index.ts", node: "src/node/index.ts", files: "src/files.ts", json: "src/json.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks instead of each bundling a copy, so ValidationError and JsonRpcError have
  // one identity whichever subpath they are imported from.
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
}, { name: "validation", owned: ["src/issues.ts"] }));

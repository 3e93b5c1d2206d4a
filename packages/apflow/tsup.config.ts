import { defineConfig } from "tsup";
import { VALIDATE_ENTRY, withStandaloneEntry } from "../../scripts/tsup-standalone-entry.js";

// `/validate` is one file that imports only runtime's `/validation`.
export default defineConfig(withStandaloneEntry({
  entry: { index: "src/index.ts", validate: "src/validate.ts", client: "src/client/index.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy (one identity per class).
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
  // import.meta.url in the CommonJS build too (ajv is loaded on demand relative to it).
  shims: true,
}, VALIDATE_ENTRY));

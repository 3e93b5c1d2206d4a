import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", validate: "src/validate.ts", client: "src/client/index.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy (one identity per class).
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
  // import.meta.url in the CommonJS build too (ajv is loaded on demand relative to it).
  shims: true,
});

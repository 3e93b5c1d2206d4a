import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "schema-files": "src/schema-files.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy of the schema reader.
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
});

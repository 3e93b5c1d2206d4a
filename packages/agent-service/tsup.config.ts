import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", validate: "src/validate.ts", testing: "src/testing.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy (one identity per class).
  splitting: true,
  dts: true,
  clean: true,
  target: "node20",
});

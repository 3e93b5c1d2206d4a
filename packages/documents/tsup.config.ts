import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", kinds: "src/kinds.ts", graph: "src/graph/index.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy (one identity per class).
  splitting: true,
  dts: true,
  clean: true,
  target: "es2022",
});

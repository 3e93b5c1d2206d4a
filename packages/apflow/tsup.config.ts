import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", client: "src/client/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "node20",
});

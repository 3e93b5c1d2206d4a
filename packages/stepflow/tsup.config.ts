import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", node: "src/node.ts", server: "src/server/index.ts", client: "src/client/index.ts" },
  // server/ and client/ reach the generated validators through the main entry, by name, so the
  // entries share one copy of them.
  external: ["@flowspec/stepflow"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "node20",
});

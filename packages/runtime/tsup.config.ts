import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", validation: "src/validation.ts", ajv: "src/ajv.ts", jsonrpc: "src/jsonrpc/index.ts", node: "src/node/index.ts" },
  // The main entry re-exports ./validation through the package's own name, so both entries share
  // one ValidationError class instead of bundling a copy each.
  external: ["@flowspec/runtime/validation", "@flowspec/runtime/jsonrpc"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  target: "node20",
  tsconfig: "tsconfig.json",
});

import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", validation: "src/validation.ts", ajv: "src/ajv.ts", jsonrpc: "src/jsonrpc/index.ts", node: "src/node/index.ts", files: "src/files.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks instead of each bundling a copy, so ValidationError and JsonRpcError have
  // one identity whichever subpath they are imported from.
  splitting: true,
  // ajv's run-time helpers and ajv-formats' formats are CommonJS: bundled into ./ajv as ESM, the
  // generated validators load without Node's CommonJS interop (a few ms at every start-up).
  noExternal: [/^ajv\/dist\/runtime\//, /^ajv-formats\/dist\/formats/, "fast-deep-equal"],
  dts: true,
  clean: true,
  target: "node20",
});

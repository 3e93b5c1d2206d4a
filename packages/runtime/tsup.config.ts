import { defineConfig } from "tsup";
import type { Plugin } from "esbuild";

/**
 * Keeps `./yaml-loader.js` a file of its own in dist, imported by name, so that the package's
 * `browser` field can swap it for the browser one (a bundled chunk could not be swapped).
 */
const separateYamlLoader: Plugin = {
  name: "separate-yaml-loader",
  setup(build) {
    // tsup builds the CommonJS files as ESM with a .cjs extension, then converts them.
    const file = `./yaml-loader${build.initialOptions.outExtension?.[".js"] ?? ".js"}`;
    build.onResolve({ filter: /^\.\/yaml-loader\.js$/ }, () => ({ path: file, external: true }));
  },
};

export default defineConfig({
  entry: {
    index: "src/index.ts",
    validation: "src/validation.ts",
    ajv: "src/ajv.ts",
    jsonrpc: "src/jsonrpc/index.ts",
    node: "src/node/index.ts",
    files: "src/files.ts",
    json: "src/json.ts",
    "yaml-loader": "src/yaml-loader.ts",
    "yaml-loader.browser": "src/yaml-loader.browser.ts",
  },
  format: ["esm", "cjs"],
  // Entries share chunks instead of each bundling a copy, so ValidationError and JsonRpcError have
  // one identity whichever subpath they are imported from.
  splitting: true,
  // import.meta.url in the CommonJS build (yaml-loader.ts requires yaml relative to its own file).
  shims: true,
  esbuildPlugins: [separateYamlLoader],
  dts: true,
  clean: true,
  target: "node20",
});

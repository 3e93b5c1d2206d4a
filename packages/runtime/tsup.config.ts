import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { copyFileSync, readFileSync } from "node:fs";
import { defineConfig, type Options } from "tsup";
import { withStandaloneEntry } from "../../scripts/tsup-standalone-entry.js";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

const yamlDir = dirname(createRequire(import.meta.url).resolve("yaml/package.json"));

/**
 * What `yaml`'s Node build does where its browser build does not, by file of the browser build: the
 * Node build reads `process` and `buffer`, here read from the global scope, which in Node holds the
 * same objects and in a browser none (so it does what the browser build does). Each text must be
 * found exactly once, or the build fails: a new version of `yaml` is checked again, not patched blind.
 */
const NODE_BEHAVIOUR: Record<string, [string, string][]> = {
  "log.js": [["        console.warn(warning);", "        if (typeof globalThis.process?.emitWarning === 'function')\n            globalThis.process.emitWarning(warning);\n        else\n            console.warn(warning);"]],
  "compose/composer.js": [["    *next(token) {\n", "    *next(token) {\n        if (globalThis.process?.env?.LOG_STREAM)\n            console.dir(token, { depth: null });\n"]],
  "parse/parser.js": [
    ["import { tokenType } from './cst.js';", "import { prettyToken, tokenType } from './cst.js';"],
    ["        this.source = source;\n", "        this.source = source;\n        if (globalThis.process?.env?.LOG_TOKENS)\n            console.log('|', prettyToken(source));\n"],
  ],
  "schema/yaml-1.1/binary.js": [
    ["    resolve(src, onError) {\n        if (typeof atob === 'function') {", "    resolve(src, onError) {\n        if (typeof globalThis.Buffer === 'function') {\n            return globalThis.Buffer.from(src, 'base64');\n        }\n        else if (typeof atob === 'function') {"],
    ["        let str;\n        if (typeof btoa === 'function') {", "        let str;\n        if (typeof globalThis.Buffer === 'function') {\n            str =\n                buf instanceof globalThis.Buffer\n                    ? buf.toString('base64')\n                    : globalThis.Buffer.from(buf.buffer).toString('base64');\n        }\n        else if (typeof btoa === 'function') {"],
  ],
};

/**
 * `yaml` is bundled (src/yaml.ts says why): its browser build, which is ES modules (so bundlers drop
 * what a program does not use), with the few lines of its Node build put back (NODE_BEHAVIOUR).
 */
const bundledYaml: Plugin = {
  name: "bundled-yaml",
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: join(yamlDir, "browser", "index.js") }));
    const browserDist = join(yamlDir, "browser", "dist") + sep;
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(browserDist)) return undefined;
      const patches = NODE_BEHAVIOUR[relative(browserDist, args.path).split(sep).join("/")];
      if (!patches) return undefined;
      let contents = readFileSync(args.path, "utf8");
      for (const [from, to] of patches) {
        const at = contents.indexOf(from);
        if (at < 0 || contents.indexOf(from, at + 1) >= 0) return { errors: [{ text: `yaml's ${args.path}: expected ${JSON.stringify(from)} once, to put back what yaml's Node build does` }] };
        contents = contents.slice(0, at) + to + contents.slice(at + from.length);
      }
      return { contents, loader: "js" };
    });
  },
};

// `/validation` is one file: every generated validator imports it at start-up.
export default defineConfig(
  withStandaloneEntry(
    {
      entry: { index: "src/index.ts", validation: "src/validation.ts", ajv: "src/ajv.ts", jsonrpc: "src/jsonrpc/index.ts", node: "src/node/index.ts", files: "src/files.ts", json: "src/json.ts", yaml: "src/yaml.ts" },
      format: ["esm", "cjs"],
      // Entries share chunks instead of each bundling a copy, so ValidationError and JsonRpcError have
      // one identity whichever subpath they are imported from (and one copy of yaml is loaded).
      splitting: true,
      dts: true,
      clean: true,
      target: "node20",
      noExternal: ["yaml"],
      esbuildPlugins: [bundledYaml],
      // yaml's licence travels with the code bundled from it.
      onSuccess: async () => copyFileSync(join(yamlDir, "LICENSE"), "dist/yaml.LICENSE"),
    },
    { name: "validation", owned: ["src/issues.ts"] },
  ),
);

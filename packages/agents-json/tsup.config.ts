import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { defineConfig } from "tsup";
import { VALIDATE_ENTRY, withStandaloneEntry } from "../../scripts/tsup-standalone-entry.js";

// @apidevtools/json-schema-ref-parser is ESM-only. The CommonJS build carries its own copy (with
// js-yaml, which it imports), so `require("@flowspec/agents-json")` works without require(esm):
// under Jest 29, `--no-experimental-require-module` or older bundlers, loading sources included.
// The ESM build imports the installed package.
const REF_PARSER = "@apidevtools/json-schema-ref-parser";

// `/validate` is one file that imports only runtime's `/validation`.
export default defineConfig(withStandaloneEntry({
  entry: { index: "src/index.ts", validate: "src/validate.ts" },
  format: ["esm", "cjs"],
  // Entries share chunks rather than each bundling a copy (one identity per class).
  splitting: true,
  noExternal: [REF_PARSER],
  esbuildOptions(options, { format }) {
    if (format === "esm") options.external = [...(options.external ?? []), REF_PARSER];
  },
  // Both bundled packages are MIT-licensed: their licenses ship with the copies.
  onSuccess: async () => writeFileSync("dist/THIRD-PARTY-LICENSES.txt", bundledLicenses([REF_PARSER, "js-yaml"])),
  dts: true,
  clean: true,
  target: "node20",
}, VALIDATE_ENTRY));

/** Each package's license text, resolved as the bundle resolved it (js-yaml from the ref parser's folder). */
function bundledLicenses(names: string[]): string {
  let from = createRequire(import.meta.url);
  return names
    .map((name) => {
      const manifest = from.resolve(`${name}/package.json`);
      from = createRequire(manifest);
      const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
      return `${name}@${version} (in dist/*.cjs)\n\n${readFileSync(join(dirname(manifest), "LICENSE"), "utf8").trim()}\n`;
    })
    .join("\n---\n\n");
}

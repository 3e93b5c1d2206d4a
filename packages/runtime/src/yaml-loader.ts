/**
 * The `yaml` library, required on the first call instead of imported: loading it costs about 70 ms
 * of CPU, which a process that never reads or writes YAML (a flow given as an object, JSON files)
 * should not pay. The package's `browser` field swaps this file for yaml-loader.browser.ts, where
 * a page's bundler needs a static import; in Node, `require` gives the same module instance that
 * `import "yaml"` would (yaml is CommonJS there), in the ESM build as in the CommonJS one.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let yaml: typeof Yaml | undefined;

/** The `yaml` module, loaded by the first call. */
export function loadYaml(): typeof Yaml {
  return (yaml ??= createRequire(import.meta.url)("yaml") as typeof Yaml);
}

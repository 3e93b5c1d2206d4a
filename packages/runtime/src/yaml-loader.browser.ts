/**
 * yaml-loader.ts for bundlers targeting browsers (through the package's `browser` field): a page
 * has no synchronous `require`, so the bundle holds `yaml` and this returns it.
 */
import * as yaml from "yaml";

/** The `yaml` module. */
export function loadYaml(): typeof yaml {
  return yaml;
}

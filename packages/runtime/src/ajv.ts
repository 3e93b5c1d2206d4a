/**
 * What ajv standalone validators need at run time, re-exported so generated code imports it from
 * here: codegen rewrites every `require()` ajv emits into an import of this module. Nothing here
 * compiles a schema, and it stays small: it loads at the start of every program that validates.
 */
import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";

/**
 * ajv's runtime files are CommonJS with `exports.default`. Node's ESM loader hands back the whole
 * `module.exports` as the default import, bundlers hand back `exports.default`: accept both.
 */
function commonJsDefault<T>(module: T | { default: T }): T {
  return typeof module === "object" && module !== null && "default" in module ? module.default : (module as T);
}

export const equal = commonJsDefault(equalModule);
export const ucs2length = commonJsDefault(ucs2lengthModule);
export { formats } from "./formats.js";

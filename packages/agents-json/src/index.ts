export * from "./validate.js";
export * from "./diagnostics.js";
export * from "./errors.js";
export { load, loadFile, inspectAgentsJson, type LoadOptions, type Inspection } from "./loader/load.js";
export type * from "./loader/types.js";
export { splitFieldPath, readPath, writePath } from "./fieldpath.js";

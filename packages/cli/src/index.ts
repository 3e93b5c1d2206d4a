export { runCli } from "./program.js";
export { EXIT, type CliIo } from "./io.js";
export { detectKind, findKind, KINDS, type DocumentKind } from "./kinds.js";

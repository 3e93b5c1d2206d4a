export {
  createAssert,
  createGuard,
  createStandardSchema,
  createValidate,
  formatIssues,
  isThenable,
  issuesFromAjv,
  parsePointer,
  toPointer,
  ValidationError,
  type AjvErrorObject,
  type Assert,
  type CompiledValidator,
  type FlowspecSchema,
  type Guard,
  type JsonSchemaDialect,
  type Validate,
  type ValidationIssue,
  type ValidationResult,
} from "./validation.js";
export {
  DocumentParseError,
  parseSourceDocument,
  type ParseSourceOptions,
  type SourceDocument,
  type SourceLocation,
} from "./document.js";
export { startTimer } from "./timer.js";
export { untilAborted } from "./abort.js";
export { readUpTo } from "./read-limited.js";
export { decodeUtf8 } from "./utf8.js";

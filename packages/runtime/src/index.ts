export {
  createAssert,
  createGuard,
  createStandardSchema,
  createValidate,
  formatIssues,
  parsePointer,
  toPointer,
  ValidationError,
  type Assert,
  type CompiledValidator,
  type FlowspecSchema,
  type Guard,
  type JsonSchemaDialect,
  type Validate,
  type ValidationIssue,
  type ValidationResult,
} from "./validation.js";
export { issuesFromAjv, type AjvErrorObject } from "./issues.js";
export {
  DocumentParseError,
  parseSourceDocument,
  type ParseSourceOptions,
  type SourceDocument,
  type SourceLocation,
} from "./document.js";

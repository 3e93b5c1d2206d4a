export {
  createAssert,
  createGuard,
  createStandardSchema,
  createValidate,
  DEFAULT_MAX_ERRORS,
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
  type ValidateOptions,
  type ValidationIssue,
  type ValidationResult,
} from "./validation.js";
export {
  checkYamlNesting,
  DocumentParseError,
  parseSourceDocument,
  type ParseSourceOptions,
  type SourceDocument,
  type SourceLocation,
} from "./document.js";
export { parseJsonDocument, sourceFormat } from "./json.js";
export { isJsonFloat, JsonFloat, jsonFloat, parseJsonKeepingFloats, plainNumbers, stringifyJson } from "./json-numbers.js";
export { stringifyYaml } from "./yaml-text.js";
export { startTimer } from "./timer.js";
export { untilAborted } from "./abort.js";
export { DEFAULT_MAX_RESPONSE_BYTES, readBodyBytes, readBodyText, readUpTo, ResponseTooLargeError, type BodyLimit } from "./read-limited.js";
export { ERROR_BRAND, isErrorInstance } from "./error-brand.js";
export { createBoundedSseParser, type BoundedSseParser } from "./sse.js";
export { backoffDelay, parseRetryAfter, retryDelay, sleep, type Backoff } from "./retry.js";
export { DEFAULT_MAX_REDIRECTS, fetchFollowingRedirects, RedirectError, type RedirectPolicy } from "./redirect.js";
export { byteLimit } from "./jsonrpc/lines.js";
export { decodeUtf8 } from "./utf8.js";

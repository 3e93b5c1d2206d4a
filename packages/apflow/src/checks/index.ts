export { checkDependency, checkTask, checkTaskList, checkTaskTree } from "./check.js";
export type { CheckMode, CheckOptions, CheckResult, Issue, IssueCode, Severity } from "./issue.js";
export { isUuidV4, parseTimestamp, type ParsedTimestamp } from "./formats.js";
export { validateInputs, type InputsVerdict } from "./inputs.js";

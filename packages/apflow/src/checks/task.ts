import { schemaIssues } from "../validate.js";
import { checkInputsAgainstSchema } from "./inputs.js";
import { DEPENDENCY_FIELDS, SCHEMAS_TYPES, TASK_FIELDS, TERMINAL_STATUSES, TIMESTAMP_FIELDS, V1_EXTENSION_FIELDS } from "./fields.js";
import { isUuidV4, parseTimestamp, type ParsedTimestamp } from "./formats.js";
import type { IssueSink } from "./issue.js";

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const pointerToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Runs layer 1 and the per-task rules of notes §3.2 on one task. `at` is the JSON Pointer of the
 * task inside the checked value. Never throws, whatever the value.
 */
export function checkOneTask(sink: IssueSink, task: unknown, at: string, checkInputs: boolean): void {
  const mode = sink.mode;
  const schemaFailures = schemaIssues("Task", mode, task);
  const taskId = isObject(task) && typeof task.id === "string" ? task.id : undefined;
  for (const issue of schemaFailures) {
    // The semantic layer reports uuid and date-time under its own codes, more strictly than ajv-formats.
    if (issue.keyword === "format" && (issue.params.format === "uuid" || issue.params.format === "date-time")) continue;
    sink.error("schema", at + issue.path, issue.message, { taskId, keyword: issue.keyword, params: issue.params });
  }
  if (!isObject(task)) return;

  const extra = taskId === undefined ? undefined : { taskId };
  checkId(sink, task.id, `${at}/id`, extra);
  if (typeof task.parent_id === "string") checkId(sink, task.parent_id, `${at}/parent_id`, extra);

  const times: Partial<Record<(typeof TIMESTAMP_FIELDS)[number], ParsedTimestamp>> = {};
  for (const field of TIMESTAMP_FIELDS) {
    const value = task[field];
    if (typeof value !== "string") continue;
    const parsed = checkTimestamp(sink, value, `${at}/${field}`, extra);
    if (parsed) times[field] = parsed;
  }

  checkSchemasField(sink, task.schemas, `${at}/schemas`, extra);
  if (typeof task.status === "string") checkConsistency(sink, task, task.status, times, at, extra);

  const known = mode === "strict" ? undefined : V1_EXTENSION_FIELDS;
  for (const key in task) {
    if (!TASK_FIELDS.has(key) && !known?.has(key)) {
      sink.warn("unknown-field", `${at}/${pointerToken(key)}`, `unknown Task field "${key}" (kept as it is)`, extra);
    }
  }

  if (Array.isArray(task.dependencies)) checkOwnDependencies(sink, task.dependencies, taskId, `${at}/dependencies`, extra);

  if (checkInputs && isObject(task.schemas) && isObject(task.schemas.input_schema)) {
    checkInputsAgainstSchema(sink, task.inputs ?? {}, task.schemas.input_schema, `${at}/inputs`, `${at}/schemas/input_schema`, extra);
  }
}

function checkId(sink: IssueSink, id: unknown, at: string, extra: { taskId: string } | undefined): void {
  if (typeof id !== "string") return; // layer 1 reports the type
  if (id === "") {
    sink.error("uuid", at, "must be a non-empty id", extra);
  } else if (!isUuidV4(id)) {
    const message = `${JSON.stringify(id)} is not a UUID v4`;
    if (sink.mode === "strict") sink.error("uuid", at, message, extra);
    else sink.warn("uuid", at, message, extra);
  }
}

function checkTimestamp(sink: IssueSink, text: string, at: string, extra: { taskId: string } | undefined): ParsedTimestamp | undefined {
  const parsed = parseTimestamp(text);
  if (!parsed) {
    sink.error("timestamp", at, `${JSON.stringify(text)} is not an RFC 3339 date-time`, extra);
    return undefined;
  }
  if (!parsed.hasOffset) {
    const message = `${JSON.stringify(text)} has no time zone offset (read as UTC)`;
    if (sink.mode === "strict") {
      sink.error("timestamp", at, `${JSON.stringify(text)} has no time zone offset; RFC 3339 needs Z or ±hh:mm`, extra);
      return undefined;
    }
    sink.warn("timestamp", at, message, extra);
  } else if (!parsed.utc) {
    sink.warn("timestamp-not-utc", at, `${JSON.stringify(text)} is not in UTC (timestamps SHOULD be UTC)`, extra);
  }
  return parsed;
}

function checkSchemasField(sink: IssueSink, schemas: unknown, at: string, extra: { taskId: string } | undefined): void {
  if (!isObject(schemas)) return; // null, absent, or a layer-1 type error
  const method = schemas.method;
  if (method === undefined) sink.must("schemas-method", `${at}/method`, "schemas.method is missing: it names the executor", extra);
  else if (typeof method !== "string" || method === "") {
    sink.must("schemas-method", `${at}/method`, "schemas.method must be a non-empty string (the executor id)", extra);
  }
  if (schemas.type !== undefined && !(typeof schemas.type === "string" && SCHEMAS_TYPES.has(schemas.type))) {
    sink.must("schemas-type", `${at}/type`, `schemas.type must be "local", "remote" or "external", not ${JSON.stringify(schemas.type)}`, extra);
  }
  const inputSchema = schemas.input_schema;
  if (inputSchema !== undefined && inputSchema !== null && !isObject(inputSchema)) {
    sink.must("input-schema", `${at}/input_schema`, "schemas.input_schema must be a JSON Schema object", extra);
  }
}

function checkConsistency(
  sink: IssueSink,
  task: Record<string, unknown>,
  status: string,
  times: Partial<Record<(typeof TIMESTAMP_FIELDS)[number], ParsedTimestamp>>,
  at: string,
  extra: { taskId: string } | undefined,
): void {
  const has = (field: string) => task[field] !== undefined && task[field] !== null;
  const terminal = TERMINAL_STATUSES.has(status);
  if (has("result") && status !== "completed") {
    sink.must("status-result", `${at}/result`, `result must be null while status is "${status}"`, extra);
  }
  if (status === "completed" && !has("result")) sink.warn("missing-result", `${at}/result`, "a completed task SHOULD have a result", extra);
  const failedOrCancelled = status === "failed" || status === "cancelled";
  if (has("error") && !failedOrCancelled) sink.must("status-error", `${at}/error`, `error must be null while status is "${status}"`, extra);
  if (failedOrCancelled && !has("error")) sink.warn("missing-error", `${at}/error`, `a ${status} task SHOULD have an error message`, extra);
  if (task.error === "") sink.must("empty-error", `${at}/error`, "error must be a non-empty message when present", extra);
  if (status === "pending" && has("started_at")) sink.must("started-at", `${at}/started_at`, "a pending task must not have started_at", extra);
  if (status === "in_progress" && !has("started_at")) sink.must("started-at", `${at}/started_at`, "an in_progress task must have started_at", extra);
  if (terminal && !has("completed_at")) sink.must("completed-at", `${at}/completed_at`, `a ${status} task must have completed_at`, extra);
  if (!terminal && has("completed_at")) sink.must("completed-at", `${at}/completed_at`, `a ${status} task must not have completed_at`, extra);
  const started = times.started_at;
  const completed = times.completed_at;
  if (started && completed && started.epochMs > completed.epochMs) {
    sink.must("timestamp-order", `${at}/started_at`, "started_at is later than completed_at", extra);
  }
  if (status === "completed" && typeof task.progress === "number" && task.progress !== 1) {
    sink.warn("completed-progress", `${at}/progress`, `progress is ${task.progress} on a completed task; it SHOULD be 1.0`, extra);
  }
}

/** Rules about one task's own dependency list: unknown keys, self-dependency, duplicates. */
function checkOwnDependencies(
  sink: IssueSink,
  dependencies: unknown[],
  taskId: string | undefined,
  at: string,
  extra: { taskId: string } | undefined,
): void {
  const seen = dependencies.length > 1 ? new Set<string>() : undefined;
  for (let i = 0; i < dependencies.length; i++) {
    const dependency = dependencies[i];
    if (!isObject(dependency)) continue; // layer 1 reports it
    for (const key in dependency) {
      if (!DEPENDENCY_FIELDS.has(key)) {
        sink.warn("unknown-field", `${at}/${i}/${pointerToken(key)}`, `unknown Dependency field "${key}" (kept as it is)`, extra);
      }
    }
    const id = dependency.id;
    if (typeof id !== "string") continue;
    checkId(sink, id, `${at}/${i}/id`, extra);
    if (taskId !== undefined && id === taskId) {
      sink.error("self-dependency", `${at}/${i}`, `task ${JSON.stringify(id)} depends on itself`, extra);
    }
    if (seen) {
      if (seen.has(id)) sink.warn("duplicate-dependency", `${at}/${i}`, `dependency ${JSON.stringify(id)} is listed more than once`, extra);
      else seen.add(id);
    }
  }
}

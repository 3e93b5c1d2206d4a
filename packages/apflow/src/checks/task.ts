import { isTaskWire, schemaIssues } from "../validate.js";
import { checkInputsAgainstSchema } from "./inputs.js";
import { SCHEMAS_TYPES, TASK_FIELD_ORDER, TASK_FIELDS, V1_EXTENSION_FIELDS } from "./fields.js";
import { isUuidV4, parseTimestamp, type ParsedTimestamp } from "./formats.js";
import type { IssueSink } from "./issue.js";

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const pointerToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The task's JSON Pointer, computed only when an issue needs it (most tasks have none). */
type At = () => string;
type Extra = { taskId: string } | undefined;
type UuidTest = (id: string) => boolean;

/**
 * Whether the ids one task names are UUID v4s. A tree or list answers from the ids it has already
 * tested (the task's own, its enclosing task's, the tasks its dependencies name), so each id is
 * tested against the pattern once, however often it is named: that pattern was the largest cost of
 * a check. `dependency` gets the entry's index in the task's list, and whether it names the task itself.
 */
export interface IdTests {
  own: UuidTest;
  parent: UuidTest;
  dependency(k: number, id: string, self: boolean): boolean;
}

const PATTERN_ONLY: IdTests = { own: isUuidV4, parent: isUuidV4, dependency: (_k, id) => isUuidV4(id) };

/**
 * Runs layer 1 and the per-task rules of notes §3.2 on one task. `pointer` gives the JSON Pointer
 * of the task inside the checked value; as a function, it is called only when an issue is reported,
 * and should remember its value (several issues of one task each ask for it). Never throws,
 * whatever the value.
 */
export function checkOneTask(sink: IssueSink, task: unknown, pointer: string | At, checkInputs: boolean, ids: IdTests = PATTERN_ONLY): void {
  const at = typeof pointer === "string" ? constant(pointer) : pointer;
  const object = isObject(task);
  const taskId = object && typeof task.id === "string" && task.id !== "" ? task.id : undefined;
  const extra: Extra = taskId === undefined ? undefined : { taskId };
  // The guard first: a valid task (nearly every one) then costs no result object and no issue
  // array; only an invalid one is validated again to collect all of its errors.
  if (!isTaskWire(task)) {
    for (const issue of schemaIssues("Task", task)) {
      sink.error("schema", at() + issue.path, issue.message, { ...extra, keyword: issue.keyword, params: issue.params });
    }
  }
  if (!object) return;

  checkId(sink, task.id, at, "/id", extra, ids.own);
  if (typeof task.parent_id === "string") checkId(sink, task.parent_id, at, "/parent_id", extra, ids.parent);

  // Each field read by name: a read by a variable key (task[field]) was a slow generic lookup.
  const createdAt = task.created_at;
  const startedAt = task.started_at;
  const updatedAt = task.updated_at;
  const completedAt = task.completed_at;
  if (typeof createdAt === "string") checkTimestamp(sink, createdAt, at, "created_at", extra);
  const started = typeof startedAt === "string" ? checkTimestamp(sink, startedAt, at, "started_at", extra) : undefined;
  if (typeof updatedAt === "string") checkTimestamp(sink, updatedAt, at, "updated_at", extra);
  const completed = typeof completedAt === "string" ? checkTimestamp(sink, completedAt, at, "completed_at", extra) : undefined;

  if (isObject(task.schemas)) checkSchemasField(sink, task.schemas, at, extra);
  if (typeof task.status === "string") checkConsistency(sink, task, task.status, started, completed, at, extra);

  const known = sink.mode === "strict" ? undefined : V1_EXTENSION_FIELDS;
  // Keys mostly come in the Spec's order (builders, the scheduler and v1 servers write all 17 so):
  // while they do, each is one comparison with the next expected name instead of a set lookup,
  // which was the most expensive line of this check.
  let next = 0;
  for (const key in task) {
    if (key === TASK_FIELD_ORDER[next]) {
      next++;
      continue;
    }
    if (!TASK_FIELDS.has(key) && !known?.has(key)) {
      sink.warn("unknown-field", `${at()}/${pointerToken(key)}`, `unknown Task field "${key}" (kept as it is)`, extra);
    }
  }

  if (Array.isArray(task.dependencies) && task.dependencies.length > 0) checkOwnDependencies(sink, task.dependencies, taskId, at, extra, ids);

  if (checkInputs && isObject(task.schemas) && isObject(task.schemas.input_schema)) {
    checkInputsAgainstSchema(sink, task.inputs ?? {}, task.schemas.input_schema, `${at()}/inputs`, `${at()}/schemas/input_schema`, extra);
  }
}

// Returns an anonymous arrow: tools that keep function names (esbuild's keepNames, as tsx uses)
// would otherwise wrap a named closure at creation.
function constant(value: string): At {
  return () => value;
}

/** `uuid`: a UUID v4 in strict mode (error), any non-empty string in wire mode (warning otherwise). */
export function checkId(sink: IssueSink, id: unknown, at: At, suffix: string, extra: Extra, isUuid: UuidTest = isUuidV4): void {
  if (typeof id !== "string") return; // layer 1 reports the type
  if (id === "") {
    sink.error("uuid", at() + suffix, "must be a non-empty id", extra);
  } else if (!isUuid(id)) {
    const message = `${JSON.stringify(id)} is not a UUID v4`;
    if (sink.mode === "strict") sink.error("uuid", at() + suffix, message, extra);
    else sink.warn("uuid", at() + suffix, message, extra);
  }
}

function checkTimestamp(sink: IssueSink, text: string, at: At, field: string, extra: Extra): ParsedTimestamp | undefined {
  const parsed = parseTimestamp(text);
  if (!parsed) {
    sink.error("timestamp", `${at()}/${field}`, `${JSON.stringify(text)} is not an RFC 3339 date-time`, extra);
    return undefined;
  }
  if (!parsed.hasOffset) {
    if (sink.mode === "strict") {
      sink.error("timestamp", `${at()}/${field}`, `${JSON.stringify(text)} has no time zone offset; RFC 3339 needs Z or ±hh:mm`, extra);
      return undefined;
    }
    sink.warn("timestamp", `${at()}/${field}`, `${JSON.stringify(text)} has no time zone offset (read as UTC)`, extra);
  } else if (!parsed.utc) {
    sink.warn("timestamp-not-utc", `${at()}/${field}`, `${JSON.stringify(text)} is not in UTC (timestamps SHOULD be UTC)`, extra);
  }
  return parsed;
}

function checkSchemasField(sink: IssueSink, schemas: Record<string, unknown>, at: At, extra: Extra): void {
  const method = schemas.method;
  if (method === undefined) sink.must("schemas-method", `${at()}/schemas/method`, "schemas.method is missing: it names the executor", extra);
  else if (typeof method !== "string" || method === "") {
    sink.must("schemas-method", `${at()}/schemas/method`, "schemas.method must be a non-empty string (the executor id)", extra);
  }
  if (schemas.type !== undefined && !(typeof schemas.type === "string" && SCHEMAS_TYPES.has(schemas.type))) {
    sink.must("schemas-type", `${at()}/schemas/type`, `schemas.type must be "local", "remote" or "external", not ${JSON.stringify(schemas.type)}`, extra);
  }
  const inputSchema = schemas.input_schema;
  if (inputSchema !== undefined && inputSchema !== null && !isObject(inputSchema)) {
    sink.must("input-schema", `${at()}/schemas/input_schema`, "schemas.input_schema must be a JSON Schema object", extra);
  }
}

function checkConsistency(
  sink: IssueSink,
  task: Record<string, unknown>,
  status: string,
  started: ParsedTimestamp | undefined,
  completed: ParsedTimestamp | undefined,
  at: At,
  extra: Extra,
): void {
  const terminal = status === "completed" || status === "failed" || status === "cancelled";
  // `!= null`: present means neither undefined nor null.
  const hasResult = task.result != null;
  const hasError = task.error != null;
  const hasStartedAt = task.started_at != null;
  const hasCompletedAt = task.completed_at != null;
  if (hasResult && status !== "completed") {
    sink.must("status-result", `${at()}/result`, `result must be null while status is "${status}"`, extra);
  }
  if (status === "completed" && !hasResult) sink.warn("missing-result", `${at()}/result`, "a completed task SHOULD have a result", extra);
  const failedOrCancelled = status === "failed" || status === "cancelled";
  if (hasError && !failedOrCancelled) sink.must("status-error", `${at()}/error`, `error must be null while status is "${status}"`, extra);
  if (failedOrCancelled && !hasError) sink.warn("missing-error", `${at()}/error`, `a ${status} task SHOULD have an error message`, extra);
  if (task.error === "") sink.must("empty-error", `${at()}/error`, "error must be a non-empty message when present", extra);
  if (status === "pending" && hasStartedAt) sink.must("started-at", `${at()}/started_at`, "a pending task must not have started_at", extra);
  if (status === "in_progress" && !hasStartedAt) sink.must("started-at", `${at()}/started_at`, "an in_progress task must have started_at", extra);
  if (terminal && !hasCompletedAt) sink.must("completed-at", `${at()}/completed_at`, `a ${status} task must have completed_at`, extra);
  if (!terminal && hasCompletedAt) sink.must("completed-at", `${at()}/completed_at`, `a ${status} task must not have completed_at`, extra);
  if (started && completed && started.epochMs > completed.epochMs) {
    sink.must("timestamp-order", `${at()}/started_at`, "started_at is later than completed_at", extra);
  }
  if (status === "completed" && typeof task.progress === "number" && task.progress !== 1) {
    sink.warn("completed-progress", `${at()}/progress`, `progress is ${task.progress} on a completed task; it SHOULD be 1.0`, extra);
  }
}

/** Rules about one task's own dependency list: unknown keys, UUIDs, self-dependency, duplicates. */
function checkOwnDependencies(sink: IssueSink, dependencies: unknown[], taskId: string | undefined, at: At, extra: Extra, ids: IdTests): void {
  // Short lists (nearly all) look for duplicates by scanning; a Set per task cost more than the scan.
  const seen = dependencies.length > SCAN_DUPLICATES_UP_TO ? new Set<string>() : undefined;
  for (let i = 0; i < dependencies.length; i++) {
    const dependency = dependencies[i];
    if (!isObject(dependency)) continue; // layer 1 reports it
    for (const key in dependency) {
      if (key !== "id" && key !== "required") {
        sink.warn("unknown-field", `${at()}/dependencies/${i}/${pointerToken(key)}`, `unknown Dependency field "${key}" (kept as it is)`, extra);
      }
    }
    const id = dependency.id;
    if (typeof id !== "string") continue;
    const self = taskId !== undefined && id === taskId;
    if (!ids.dependency(i, id, self)) checkId(sink, id, at, `/dependencies/${i}/id`, extra); // the path only when reported
    if (self) {
      sink.error("self-dependency", `${at()}/dependencies/${i}`, `task ${JSON.stringify(id)} depends on itself`, extra);
    }
    let duplicate: boolean;
    if (seen === undefined) duplicate = listedBefore(dependencies, i, id);
    else {
      duplicate = seen.has(id);
      seen.add(id);
    }
    if (duplicate) {
      sink.warn("duplicate-dependency", `${at()}/dependencies/${i}`, `dependency ${JSON.stringify(id)} is listed more than once`, extra);
    }
  }
}

const SCAN_DUPLICATES_UP_TO = 8;

function listedBefore(dependencies: unknown[], end: number, id: string): boolean {
  for (let j = 0; j < end; j++) {
    const other = dependencies[j];
    if (isObject(other) && other.id === id) return true;
  }
  return false;
}

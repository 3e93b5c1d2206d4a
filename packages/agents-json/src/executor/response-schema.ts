import { isPlainObject } from "../fieldpath.js";
import { pickMediaType } from "../sources/media.js";
import type { OperationEntry } from "../sources/openapi.js";
import { checkValue, type ValueIssue } from "./check-value.js";

/**
 * Opt-in contract check (§4.6 `validateResponses`): the parsed body against the schema of the
 * operation's response for that status (exact, then `2XX`, then `default`). Returns the issues;
 * the executor reports them as warnings.
 */
export function responseIssues(entry: OperationEntry, status: number, body: unknown): ValueIssue[] {
  const responses = isPlainObject(entry.operation.responses) ? entry.operation.responses : {};
  const response = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!isPlainObject(response) || !isPlainObject(response.content)) return [];
  const mediaType = pickMediaType(response.content);
  const media = mediaType === undefined ? undefined : response.content[mediaType];
  if (!isPlainObject(media) || !isPlainObject(media.schema)) return [];
  return checkValue(body, media.schema);
}

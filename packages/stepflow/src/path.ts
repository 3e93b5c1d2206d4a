/**
 * The JSONPath subset of StepFlow 0.2.x references (protocol notes §6.1): `""`/`"$"` select the
 * whole value, a path not starting with `$` is one literal field name, and after `$` come `.name`,
 * `["name"]`/`['name']` and `[N]` segments. Nothing else (no wildcards, no recursive descent, no
 * negative indices).
 */
import { isErrorInstance } from "@flowspec/runtime";

/** One step of a parsed path: a field of an object or an index into an array. */
export type PathSegment = { field: string } | { index: number };

/** A path string that does not parse; `reason` is the 0.2.x runtime's own wording. */
export class PathSyntaxError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:PathSyntaxError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "PathSyntaxError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`invalid path ${JSON.stringify(path)}: ${reason}`);
  }
}

/** Parses a reference path. Throws `PathSyntaxError` with the runtime's message when it is invalid. */
export function parsePath(path: string): PathSegment[] {
  if (path === "") return [];
  const trimmed = path.trim();
  if (!trimmed.startsWith("$")) return [{ field: path }];
  const rest = trimmed.slice(1);
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < rest.length) {
    const ch = rest[i]!;
    if (ch === "[") {
      const end = rest.indexOf("]", i + 1);
      if (end < 0) throw new PathSyntaxError(path, "Unclosed bracket '[' in path");
      const content = rest.slice(i + 1, end).trim();
      i = end + 1;
      const quoted = content.length >= 2 && (content[0] === '"' || content[0] === "'") && content.endsWith(content[0]!);
      if (quoted) {
        segments.push({ field: content.slice(1, -1) });
      } else if (/^\+?[0-9]+$/.test(content) && Number.isSafeInteger(Number(content))) {
        segments.push({ index: Number(content) });
      } else {
        throw new PathSyntaxError(path, `Invalid index '${content}' in JSON path. Expected a number or a quoted string.`);
      }
    } else if (ch === ".") {
      let end = i + 1;
      while (end < rest.length && rest[end] !== "." && rest[end] !== "[") end++;
      if (end > i + 1) segments.push({ field: rest.slice(i + 1, end) });
      i = end;
    } else {
      const codePoint = String.fromCodePoint(rest.codePointAt(i)!);
      throw new PathSyntaxError(path, `Invalid character '${codePoint}' in JSON path after $ or ']'. Expected '.' or '['`);
    }
  }
  return segments;
}

/** Whether `path` parses under §6.1. */
export function isValidPath(path: string): boolean {
  try {
    parsePath(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes segments the way the runtime serialises a parsed path: `$` then `.name` / `[N]`. Lossy for
 * names holding `.` or `[` (`$["a.b"]` becomes `$.a.b`); use `toDollarPath` to emit a path that
 * reads back as the same segments.
 */
export function formatPath(segments: readonly PathSegment[]): string {
  return "$" + segments.map((s) => ("index" in s ? `[${s.index}]` : `.${s.field}`)).join("");
}

/**
 * The `$`-form of a path that parses back to the same segments (protocol notes §9): `$.key` when
 * the key is non-empty and has no `.`/`[`, else `$["key"]` when it has no `]`/`"`, else `$['key']`
 * when it has no `]`/`'`. Throws for a key no 0.2.x path can address.
 */
export function toDollarPath(segments: readonly PathSegment[]): string {
  let out = "$";
  for (const segment of segments) {
    if ("index" in segment) {
      out += `[${segment.index}]`;
      continue;
    }
    out += fieldSegment(segment.field);
  }
  return out;
}

function fieldSegment(key: string): string {
  // The whole path string is trimmed before parsing, so trailing whitespace needs the quoted form.
  if (key !== "" && !/[.[]/.test(key) && key.trimEnd() === key) return `.${key}`;
  if (!/[\]"]/.test(key)) return `["${key}"]`;
  if (!/[\]']/.test(key)) return `['${key}']`;
  throw new PathSyntaxError(key, `the key ${JSON.stringify(key)} cannot be addressed by a 0.2.x path`);
}

/** Normalises a path string to its `$`-form (same meaning, `$` prefix). Throws when it does not parse. */
export function normalizePath(path: string): string {
  return toDollarPath(parsePath(path));
}

/** Why a path does not resolve against a value. */
export class PathResolutionError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:PathResolutionError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "PathResolutionError";
  constructor(
    readonly segments: readonly PathSegment[],
    readonly at: number,
    reason: string,
  ) {
    super(`${formatPath(segments.slice(0, at + 1))}: ${reason}`);
  }
}

/**
 * Applies parsed segments to a value. A missing key, an index out of range, a field on a non-object
 * or an index on a non-array throws `PathResolutionError` (never `undefined`); a key present with
 * value `null` gives `null`.
 */
export function selectPath(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if ("index" in segment) {
      if (!Array.isArray(current)) throw new PathResolutionError(segments, i, `index ${segment.index} applied to ${describe(current)}`);
      if (segment.index >= current.length) {
        throw new PathResolutionError(segments, i, `index ${segment.index} is out of range (the array has ${current.length} items)`);
      }
      current = current[segment.index];
    } else {
      if (typeof current !== "object" || current === null || Array.isArray(current)) {
        throw new PathResolutionError(segments, i, `field ${JSON.stringify(segment.field)} applied to ${describe(current)}`);
      }
      if (!Object.hasOwn(current, segment.field)) throw new PathResolutionError(segments, i, `the object has no field ${JSON.stringify(segment.field)}`);
      current = (current as Record<string, unknown>)[segment.field];
    }
  }
  return current;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `${typeof value === "object" ? "an" : "a"} ${typeof value}`;
}

/** Collections nested deeper than this are refused, in JSON as in YAML: real documents stay far below it. */
export const MAX_DEPTH = 256;

/** What makes a text JSON.parse accepts unfit as a document, and where. */
export interface JsonProblem {
  reason: string;
  offset: number;
}

/** The offset of the first character that makes `text` invalid JSON (RFC 8259), or its length. */
export function jsonErrorOffset(text: string): number {
  return scanJson(text, false).end;
}

/**
 * The first problem of a text JSON.parse accepted that JSON.parse does not report: a key repeated
 * within one object (at its second occurrence; JSON.parse keeps the last value silently), or a value
 * nested more than MAX_DEPTH collections deep (code that walks the value recursively would exhaust
 * the stack).
 */
export function jsonProblem(text: string): JsonProblem | undefined {
  return scanJson(text, true).problem;
}

/**
 * `jsonProblem` for a text that JSON.parse turned into `value`, at a fraction of the cost: the scan
 * (as slow as JSON.parse itself) only runs when the value says there may be a problem. Outside
 * strings, a JSON text has one colon per key, so the colons of the text are the keys of the value
 * plus the colons within its strings, unless a repeated key was dropped. An escaped colon
 * (`\u003a`) would be counted in the value only, and could hide a dropped key: such a text is
 * always scanned. So is a value nested deep enough to be refused, for the scan to say where.
 */
export function parsedJsonProblem(text: string, value: unknown): JsonProblem | undefined {
  const counted = keysAndStringColons(value);
  if (counted < 0 || text.includes("\\u003a") || text.includes("\\u003A") || counted !== colons(text)) return jsonProblem(text);
  return undefined;
}

function colons(text: string): number {
  let count = 0;
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) count++;
  return count;
}

/**
 * Keys of every object of `value`, plus the colons within its keys and strings; -1 if a value is
 * nested more than MAX_DEPTH deep. Recursive, as deep as MAX_DEPTH at most: it stops there.
 */
function keysAndStringColons(value: unknown, depth = 0): number {
  if (typeof value === "string") return value.includes(":") ? colons(value) : 0;
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    if (value.length > 0 && depth >= MAX_DEPTH) return -1;
    for (const item of value) {
      const inner = keysAndStringColons(item, depth + 1);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  const keys = Object.keys(value);
  if (keys.length > 0 && depth >= MAX_DEPTH) return -1;
  for (const key of keys) {
    count += key.includes(":") ? colons(key) + 1 : 1;
    const inner = keysAndStringColons((value as Record<string, unknown>)[key], depth + 1);
    if (inner < 0) return -1;
    count += inner;
  }
  return count;
}

/** An object or array being read: its closing bracket, and with `check`, an object's keys so far. */
interface Open {
  close: "}" | "]";
  seen: Set<string> | undefined;
}

/**
 * One pass over a JSON text, without recursion (so any depth is read): where it stops being valid
 * JSON, and with `check`, the first duplicate key or too deep value (the scan stops there).
 */
function scanJson(text: string, check: boolean): { end: number; problem?: JsonProblem } {
  let i = 0;
  // Runs of whitespace and of plain string characters are skipped by sticky regexes, which is
  // several times faster than stepping through them (this scan runs over every JSON document).
  const space = /[ \t\n\r]*/y;
  const plain = /[^"\\\u0000-\u001f]*/y;
  const numerals = /[0-9]*/y;
  const skip = () => {
    if (text.charCodeAt(i) > 32) return; // most calls find no whitespace
    space.lastIndex = i;
    space.test(text);
    i = space.lastIndex;
  };
  const expect = (c: string) => {
    if (text[i] !== c) throw i;
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      plain.lastIndex = i;
      plain.test(text);
      i = plain.lastIndex;
      const c = text[i];
      if (c === undefined || c < " ") throw i;
      i++;
      if (c === '"') return;
      if (c !== "\\") continue;
      if (text[i] === "u") {
        i++;
        for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) throw i;
      } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) i++;
      else throw i;
    }
  };
  const digits = () => {
    if (!(text[i]! >= "0" && text[i]! <= "9")) throw i;
    numerals.lastIndex = i;
    numerals.test(text);
    i = numerals.lastIndex;
  };
  // Step by step, so that a broken number fails where V8 says it does (after "-", ".", "e").
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const key = (seen: Set<string> | undefined) => {
    skip();
    const start = i;
    string();
    if (seen) {
      let name = text.slice(start + 1, i - 1);
      if (name.includes("\\")) name = JSON.parse(`"${name}"`) as string;
      if (seen.has(name)) throw { reason: `duplicate key ${JSON.stringify(name)}`, offset: start } satisfies JsonProblem;
      seen.add(name);
    }
    skip();
    expect(":");
  };
  const open: Open[] = [];
  try {
    for (;;) {
      // A value, at depth open.length.
      skip();
      if (check && open.length > MAX_DEPTH) throw { reason: `nested more than ${MAX_DEPTH} levels deep`, offset: i } satisfies JsonProblem;
      const c = text[i];
      if (c === "{" || c === "[") {
        const close = c === "{" ? "}" : "]";
        i++;
        skip();
        if (text[i] === close) i++;
        else {
          const seen = check && c === "{" ? new Set<string>() : undefined;
          open.push({ close, seen });
          if (c === "{") key(seen);
          continue;
        }
      } else if (c === '"') string();
      else if (c === "t" || c === "f" || c === "n") {
        for (const letter of c === "t" ? "true" : c === "f" ? "false" : "null") expect(letter);
      } else number();
      // After a value: a comma leads to the next item, a closing bracket ends the collection.
      for (;;) {
        skip();
        const inside = open[open.length - 1];
        if (!inside) return { end: i };
        if (text[i] === ",") {
          i++;
          if (inside.close === "}") key(inside.seen);
          break;
        }
        expect(inside.close);
        open.pop();
      }
    }
  } catch (at) {
    if (typeof at === "number") return { end: at };
    return { end: text.length, problem: at as JsonProblem };
  }
}

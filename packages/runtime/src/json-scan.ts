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

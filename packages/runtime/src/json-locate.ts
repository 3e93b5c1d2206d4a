import { parsePointer } from "./validation.js";

/** An object's keys (as JSON.parse reads them), or an array's items, mapped to where their values start. */
type ChildIndex = Map<string, number> | number[];

/**
 * Where the value at a JSON Pointer starts in a text JSON.parse accepted (for a pointer into
 * something that does not exist, where its deepest existing ancestor starts). Only the objects and
 * arrays a pointer goes through are read, each one pass over its children. The index of a large one
 * (over 4 KiB of text) is kept, so that locating every item of a long array costs one pass over
 * it; small ones are read again when asked again, so that memory stays far below the text's size
 * even when every step of a long flow is located.
 */
export function jsonLocator(text: string): (pointer: string) => number {
  const indexes = new Map<number, ChildIndex>();
  const root = skipSpace(text, 0);
  return (pointer) => {
    let offset = root;
    for (const token of parsePointer(pointer)) {
      const c = text[offset];
      if (c !== "{" && c !== "[") break;
      let index = indexes.get(offset);
      if (!index) {
        const read = c === "{" ? objectIndex(text, offset) : arrayIndex(text, offset);
        index = read.children;
        if (read.end - offset > KEPT) indexes.set(offset, index);
      }
      const next = Array.isArray(index) ? (/^(0|[1-9]\d*)$/.test(token) ? index[Number(token)] : undefined) : index.get(token);
      if (next === undefined) break;
      offset = next;
    }
    return offset;
  };
}

/** Containers spanning more text than this keep their index. */
const KEPT = 4096;

const space = /[ \t\n\r]*/y;
const stringBody = /[^"\\]*/y;
const scalar = /[^,\]}\s]*/y;
// Everything up to the next string or bracket: numbers, literals, commas, colons, whitespace.
const between = /[^"[\]{}]*/y;

function skipSpace(text: string, i: number): number {
  space.lastIndex = i;
  space.test(text);
  return space.lastIndex;
}

/** The offset after the string that starts (with its quote) at `i`. */
function skipString(text: string, i: number): number {
  i++;
  for (;;) {
    stringBody.lastIndex = i;
    stringBody.test(text);
    i = stringBody.lastIndex;
    if (i >= text.length || text[i] === '"') return i + 1;
    i += 2; // a backslash and the character after it (the rest of a \uXXXX is plain)
  }
}

/** The offset after the value that starts at `i`, without recursion. */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== "{" && c !== "[") {
    scalar.lastIndex = i;
    scalar.test(text);
    return scalar.lastIndex;
  }
  let depth = 0;
  for (;;) {
    between.lastIndex = i;
    between.test(text);
    i = between.lastIndex;
    const d = text[i];
    if (d === undefined) return i;
    if (d === '"') i = skipString(text, i);
    else {
      i++;
      if (d === "{" || d === "[") depth++;
      else if (--depth === 0) return i;
    }
  }
}

/** The offsets of an array's items, and the offset after the array. */
function arrayIndex(text: string, open: number): { children: number[]; end: number } {
  const children: number[] = [];
  let i = skipSpace(text, open + 1);
  if (text[i] === "]") return { children, end: i + 1 };
  for (;;) {
    children.push(i);
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return { children, end: i + 1 };
    i = skipSpace(text, i + 1);
  }
}

/** Where each of an object's values starts, by key, and the offset after the object. */
function objectIndex(text: string, open: number): { children: Map<string, number>; end: number } {
  const children = new Map<string, number>();
  let i = skipSpace(text, open + 1);
  if (text[i] === "}") return { children, end: i + 1 };
  for (;;) {
    const end = skipString(text, i);
    let key = text.slice(i + 1, end - 1);
    if (key.includes("\\")) key = JSON.parse(text.slice(i, end)) as string;
    i = skipSpace(text, skipSpace(text, end) + 1); // past the colon
    children.set(key, i);
    i = skipSpace(text, skipValue(text, i));
    if (text[i] !== ",") return { children, end: i + 1 };
    i = skipSpace(text, i + 1);
  }
}

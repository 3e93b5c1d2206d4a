/**
 * Numbers as serde_json sees them. JSON text tells an integer (`171`) from a float (`171.0`), Rust
 * and Python keep that distinction, and JavaScript does not: `JSON.parse` reads both as the number
 * 171, which `JSON.stringify` writes as `171`. A `JsonFloat` carries the one case JavaScript loses,
 * an integral value whose text has a `.` or an exponent; a non-integral float (`85.5`) needs
 * nothing, since JavaScript writes it back as a float.
 *
 * `parseJsonKeepingFloats` makes them, `stringifyJson` writes them back with their `.0`, and
 * `plainNumbers` turns them back into numbers for code that wants plain JSON values.
 */

/**
 * What every copy of this module in the process shares (the ESM and the CommonJS build, a second
 * installed version, sources and builds side by side): a float made by one is written by another.
 */
interface SharedState {
  /** A random tag, so that no string that comes from outside can pass for a float being written. */
  mark: string;
  /** Whether any JsonFloat was made in this process: until then, nothing needs to look for one. */
  anyFloat: boolean;
  /** Set while `stringifyJson` runs JSON.stringify, so that `toJSON` writes a float as one. */
  writingFloats: boolean;
}
const shared: SharedState = ((globalThis as Record<symbol, SharedState | undefined>)[Symbol.for("@flowspec/runtime:json-numbers")] ??= {
  mark: `\u0000float-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`,
  anyFloat: false,
  writingFloats: false,
});
const MARK = shared.mark;
/** Marks a JsonFloat of any copy of this module. */
const BRAND: unique symbol = Symbol.for("@flowspec/runtime:JsonFloat") as never;
/** A float while `stringifyJson` writes it: the string `toJSON` gives, as JSON.stringify quotes it. */
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([^"]*)"`, "g");

/**
 * A number written as a float in JSON (`171.0`, `1e3`), kept apart from the integer of the same
 * value. Arithmetic sees its value (`valueOf`); `JSON.stringify` writes the plain number, and
 * `stringifyJson` the float (`171.0`).
 */
export class JsonFloat {
  declare readonly [BRAND]: true;
  static {
    Object.defineProperty(this.prototype, BRAND, { value: true });
  }
  /** `instanceof` holds for a JsonFloat of any copy of this module. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isJsonFloat(value);
  }
  constructor(readonly value: number) {
    if (!Number.isFinite(value)) throw new RangeError(`a JSON float must be a finite number, got ${value}`);
    shared.anyFloat = true;
  }
  valueOf(): number {
    return this.value;
  }
  /** The float as JSON writes it: always with a `.` or an exponent (`171.0`, `-0.0`, `1e+21`). */
  toString(): string {
    const text = Object.is(this.value, -0) ? "-0" : String(this.value);
    return /[.e]/.test(text) ? text : `${text}.0`;
  }
  toJSON(): number | string {
    return shared.writingFloats ? MARK + this.toString() : this.value;
  }
}

/** A float for `stringifyJson` to write as one (`jsonFloat(2)` is written `2.0`). */
export function jsonFloat(value: number): JsonFloat {
  return new JsonFloat(value);
}

export function isJsonFloat(value: unknown): value is JsonFloat {
  return typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/**
 * `JSON.parse`, except that an integral number written as a float (`171.0`, `1.5e2`, `-0.0`)
 * becomes a `JsonFloat`. A text with no such number in value position (most texts: integers,
 * `0.5`, ids and versions inside strings do not count) is parsed by `JSON.parse` alone, after one
 * regular-expression test. Errors are `JSON.parse`'s, for the text as given.
 */
export function parseJsonKeepingFloats(text: string): unknown {
  if (!MAY_HOLD_INTEGRAL_FLOAT.test(text)) return JSON.parse(text);
  const floats = integralFloats(text);
  if (floats.length === 0) return JSON.parse(text);
  let marked = "";
  let last = 0;
  for (const [start, end] of floats) {
    marked += `${text.slice(last, start)}"${MARK_IN_JSON}${text.slice(start, end)}"`;
    last = end;
  }
  marked += text.slice(last);
  let value: unknown;
  try {
    value = JSON.parse(marked);
  } catch {
    return JSON.parse(text); // throws the error of the text as given (the marks moved its positions)
  }
  return replaceMarks(value);
}

/**
 * The end of a number that may be an integral float: a fraction of zeros (`1.00`) or an exponent
 * after a digit (`1.5e2`), then what may follow a number (white space, `,`, `}`, `]`, the end). A
 * cheap test, true for every text that holds one (a false positive, such text inside a string,
 * only costs the exact scan). It looks for where such a number ends, not for the `:`, `,` or `[`
 * before every value; a JSON-RPC message's `"2.0"` (a `"` follows) and UUIDs (a letter, `-` or
 * `"` follows any `e` and its digits) never match. It takes about a tenth of `JSON.parse`'s time on a message; the
 * value-position test it replaced took a fifth.
 */
const MAY_HOLD_INTEGRAL_FLOAT = /\.0+(?:[\s,}\]]|$)|\d[eE][+-]?\d+(?:[\s,}\]]|$)/;
const MARK_IN_JSON = `\\u0000${MARK.slice(1)}`;
const NEXT_STRING_OR_DIGIT = /["0-9]/g;
// JSON's grammar exactly (no leading zero), so that marking a number never makes a bad text good.
const NUMBER = /(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/**
 * The [start, end) of every number in value position whose text has a `.` or an exponent and whose
 * value is an integer: one pass, strings skipped whole (so digits inside them never count).
 */
function integralFloats(text: string): [number, number][] {
  const found: [number, number][] = [];
  let i = 0;
  for (;;) {
    NEXT_STRING_OR_DIGIT.lastIndex = i;
    const next = NEXT_STRING_OR_DIGIT.exec(text);
    if (!next) return found;
    i = next.index;
    if (text.charCodeAt(i) === 34 /* " */) {
      i = stringEnd(text, i);
      if (i === -1) return found; // not JSON: JSON.parse says why
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text)!;
    const start = text.charCodeAt(i - 1) === 45 /* - */ ? i - 1 : i;
    i = NUMBER.lastIndex;
    if ((number[1] !== undefined || number[2] !== undefined) && Number.isInteger(Number(text.slice(start, i)))) found.push([start, i]);
  }
}

/** The offset after the string that opens at `open`, or -1 when it does not close. */
function stringEnd(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92 /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Replaces the marked strings `parseJsonKeepingFloats` made by JsonFloats (without recursion: any depth). */
function replaceMarks(root: unknown): unknown {
  const float = (value: unknown) => (typeof value === "string" && value.startsWith(MARK) ? new JsonFloat(Number(value.slice(MARK.length))) : undefined);
  const top = float(root);
  if (top) return top;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const holder = node as Record<string, unknown>;
    for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
      const value = holder[key];
      const replaced = float(value);
      if (replaced) holder[key] = replaced;
      else if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return root;
}

/**
 * `JSON.stringify`, except that a `JsonFloat` is written as a float (`171.0`). Without any
 * JsonFloat in the process, it is `JSON.stringify`; with one, one search of the output more.
 */
export function stringifyJson(value: unknown, space?: string | number): string | undefined {
  if (!shared.anyFloat) return JSON.stringify(value, null, space);
  const outer = shared.writingFloats;
  shared.writingFloats = true;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, space);
  } finally {
    shared.writingFloats = outer;
  }
  if (text === undefined || !text.includes(MARK_IN_JSON)) return text;
  return text.replace(MARKED, "$1");
}

/**
 * The value with every `JsonFloat` replaced by its number: for code that wants plain JSON values.
 * Objects and arrays are copied only on the way to a JsonFloat; the rest is shared, and a value
 * without any comes back as it is (at no cost at all while no JsonFloat was ever made).
 */
export function plainNumbers<T>(value: T): T {
  return shared.anyFloat ? (unwrap(value, 0) as T) : value;
}

function unwrap(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isJsonFloat(value)) return value.value;
  // Values this deep do not come from JSON text (the document parser refuses them long before).
  if (depth > 10_000) throw new RangeError("plainNumbers: the value is nested more than 10000 levels deep");
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = unwrap(value[i], depth + 1);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const plain = unwrap(item, depth + 1);
    if (plain !== item) {
      copy ??= { ...value };
      Object.defineProperty(copy, key, { value: plain, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy ?? value;
}

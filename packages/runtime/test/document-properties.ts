/**
 * Properties of `parseSourceDocument`, against `JSON.parse` and the `yaml` package. Shared by the
 * test (bounded case counts) and `bench/properties.ts` (a hundred times as many).
 *
 * Documented differences (the test names each; the generators stay clear of them):
 * - a key repeated in one object is refused (JSON.parse keeps the last value; the yaml package
 *   compares keys by value, so `1` and `"1"` are two keys to it and one property to both parsers);
 * - a value nested more than 256 collections deep is refused;
 * - a leading byte order mark is dropped (JSON.parse refuses it);
 * - explicit YAML 1.1 tags (`!!set`, `!!binary`…) give plain data, not a Set or a Uint8Array;
 * - up to 10,000 alias expansions are read (the yaml package stops at 100).
 */
import fc from "fast-check";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { DocumentParseError, parseSourceDocument, toPointer } from "@flowspec/runtime";

export interface NamedProperty {
  name: string;
  /** Checks the property on its number of random cases; throws the shrunk counterexample. */
  check(): void;
}

function named<T extends [unknown, ...unknown[]]>(name: string, numRuns: number, property: fc.IProperty<T>): NamedProperty {
  return { name, check: () => fc.assert(property, { numRuns }) };
}

const json = fc.jsonValue({ maxDepth: 4 });

/** Every JSON Pointer into `value`, and below each a child that does not exist. */
function pointers(value: unknown, at: (string | number)[] = [], out: string[] = []): string[] {
  out.push(toPointer(at), toPointer([...at, "no such key"]));
  if (Array.isArray(value)) value.forEach((item, i) => pointers(item, [...at, i], out));
  else if (typeof value === "object" && value !== null) for (const [key, item] of Object.entries(value)) pointers(item, [...at, key], out);
  return out;
}

/**
 * `value` as JSON text, with the whitespace between its tokens taken in turn from `spaces`. With
 * `yaml`, no line break comes between a key and its colon (YAML, unlike JSON, refuses that).
 */
function printJson(value: unknown, spaces: string[], yaml = false): string {
  let turn = 0;
  const ws = () => spaces[turn++ % spaces.length]!;
  const beforeColon = () => (yaml ? ws().replace(/[\r\n]+ */g, " ") : ws());
  const print = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map((item) => `${print(item)}${ws()}`).join(`,${ws()}`)}]`;
    if (typeof v === "object" && v !== null) return `{${ws()}${Object.entries(v).map(([k, item]) => `${JSON.stringify(k)}${beforeColon()}:${ws()}${print(item)}${ws()}`).join(`,${ws()}`)}}`;
    return JSON.stringify(v);
  };
  return ws() + print(value) + ws();
}

const spaces = fc.array(fc.constantFrom("", " ", "  ", "\n", "\r\n", "\n    "), { minLength: 1, maxLength: 8 });
const tabbedSpaces = fc.array(fc.constantFrom("", " ", "\t", "\n", "\r\n", "\r", "\n\t"), { minLength: 1, maxLength: 8 });

/** One random edit of a text: a character inserted, removed or replaced by one that often matters. */
const edit = (text: string) =>
  fc.tuple(fc.nat({ max: text.length }), fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "'", "-", "#", "&a", "*a", "!!str ", "\n", "  ", "\t", "0", "~", "?")).map(([at, piece]) =>
    piece === "" ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + piece + text.slice(at),
  );

/** The properties, each on a few hundred cases times `scale`. */
export function documentProperties(scale = 1): NamedProperty[] {
  return [
    named(
      "JSON: the value JSON.parse gives, and every pointer located where the YAML parser, which reads JSON as YAML, locates it",
      300 * scale,
      fc.property(json, spaces, (value, ws) => {
        const text = printJson(value, ws, true);
        const document = parseSourceDocument(text, { format: "json" });
        if (!isEqual(document.value, JSON.parse(text))) throw new Error(`value differs for ${JSON.stringify(text)}`);
        const asYaml = parseSourceDocument(text, { format: "yaml" });
        for (const pointer of pointers(value)) {
          const [got, expected] = [document.describe(pointer), asYaml.describe(pointer)];
          if (got !== expected) throw new Error(`${pointer} in ${JSON.stringify(text)}: ${got}, the YAML parser says ${expected}`);
        }
      }),
    ),
    named(
      "JSON: whatever the whitespace (tabs, lone CRs), the value of JSON.parse, and each value located at a character that starts it",
      300 * scale,
      fc.property(json, tabbedSpaces, (value, ws) => {
        const text = printJson(value, ws);
        const document = parseSourceDocument(text, { format: "json" });
        if (!isEqual(document.value, JSON.parse(text))) throw new Error(`value differs for ${JSON.stringify(text)}`);
        const lines = text.split(/\r\n|\r|\n/);
        for (const pointer of pointers(value).filter((p) => !p.endsWith("/no such key"))) {
          const { line, column } = document.locate(pointer);
          const c = lines[line - 1]?.[column - 1];
          if (c === undefined || !/["{[\-0-9tfn]/.test(c)) throw new Error(`${pointer} in ${JSON.stringify(text)}: ${line}:${column} starts no value`);
        }
      }),
    ),
    named(
      "YAML: the value the yaml package gives, for any JSON value written in any of its styles",
      300 * scale,
      fc.property(
        json,
        fc.record({
          collectionStyle: fc.constantFrom("any", "block", "flow"),
          defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE", "BLOCK_LITERAL", "BLOCK_FOLDED"),
          defaultKeyType: fc.constantFrom(null, "PLAIN", "QUOTE_DOUBLE"),
          indent: fc.integer({ min: 1, max: 4 }),
          lineWidth: fc.constantFrom(0, 20, 80),
        }),
        (value, style) => {
          const text = stringifyYaml(value, { ...style, defaultKeyType: style.defaultKeyType as "PLAIN" | null });
          const expected: unknown = parseYaml(text, { logLevel: "error" });
          const got = parseSourceDocument(text, { format: "yaml" }).value;
          if (!isEqual(got, expected)) throw new Error(`value differs for ${JSON.stringify(text)}`);
        },
      ),
    ),
    named(
      "JSON, edited at random: a DocumentParseError where JSON.parse fails, else its value (or a named duplicate key); never another error",
      500 * scale,
      fc.property(
        json.chain((value) => edit(JSON.stringify(value, null, 1))),
        (text) => {
          let expected: unknown;
          let valid = true;
          try {
            expected = JSON.parse(text);
          } catch {
            valid = false;
          }
          const outcome = attempt(text, "json");
          if (!valid && !(outcome instanceof DocumentParseError)) throw new Error(`${JSON.stringify(text)}: JSON.parse fails, parseSourceDocument gave ${String(outcome)}`);
          if (valid && outcome instanceof DocumentParseError && !/^duplicate key /.test(outcome.reason)) throw new Error(`${JSON.stringify(text)}: ${outcome.message}`);
          if (valid && !(outcome instanceof DocumentParseError) && !isEqual(outcome, expected)) throw new Error(`value differs for ${JSON.stringify(text)}`);
        },
      ),
    ),
    named(
      "YAML, edited at random: the yaml package's value where it reads the text (or a named duplicate key), a DocumentParseError where it does not; never another error",
      500 * scale,
      fc.property(
        json.chain((value) => edit(stringifyYaml(value))),
        (text) => {
          let expected: unknown;
          let valid = true;
          try {
            expected = parseYaml(text, { maxAliasCount: 10_000, logLevel: "error" });
          } catch {
            valid = false;
          }
          const outcome = attempt(text, "yaml");
          if (!valid && !(outcome instanceof DocumentParseError)) throw new Error(`${JSON.stringify(text)}: the yaml package fails, parseSourceDocument gave a value`);
          if (valid && outcome instanceof DocumentParseError && !/^duplicate key /.test(outcome.reason)) throw new Error(`${JSON.stringify(text)}: ${outcome.message}`);
          if (valid && !(outcome instanceof DocumentParseError) && !isEqual(outcome, expected)) throw new Error(`value differs for ${JSON.stringify(text)}`);
        },
      ),
    ),
  ];
}

/** The value parsed, or the DocumentParseError (anything else thrown is a failure: it propagates). */
function attempt(text: string, format: "json" | "yaml"): unknown {
  try {
    return parseSourceDocument(text, { format }).value;
  } catch (error) {
    if (error instanceof DocumentParseError) return error;
    throw error;
  }
}

/** Deep equality of plain data, where -0 and 0 are one number and NaN is itself (YAML has .nan). */
function isEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => isEqual(item, b[i]));
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && isEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

import { Composer, YAMLParseError, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, visit, type Alias, type CST, type Document, type Node } from "yaml";
import { parsePointer } from "./validation.js";
import { isErrorInstance } from "./error-brand.js";

/** A 1-based line and column in a source text. */
export interface SourceLocation {
  line: number;
  column: number;
}

/** A parsed JSON or YAML document that can say where each value came from. */
export interface SourceDocument {
  readonly value: unknown;
  /** The file name given to `parseSourceDocument`, if any. */
  readonly file?: string;
  readonly format: "json" | "yaml";
  /**
   * Where the value at `pointer` starts. For a pointer into something that does not exist (a
   * missing required property), the location of its deepest existing ancestor.
   */
  locate(pointer: string): SourceLocation;
  /** `file:line:column` (or `line:column` without a file) for the value at `pointer`. */
  describe(pointer: string): string;
}

/** A syntax error in a JSON or YAML text, with the parser's position. */
export class DocumentParseError extends Error {
  static readonly "~brand": string = "@flowspec/runtime:DocumentParseError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "DocumentParseError";
  constructor(
    readonly reason: string,
    readonly file: string | undefined,
    readonly location: SourceLocation,
  ) {
    super(`${file ?? "<input>"}:${location.line}:${location.column}: ${reason}`);
  }
}

export interface ParseSourceOptions {
  /** Used in locations and errors; its extension picks the format when `format` is not given. */
  file?: string;
  /**
   * `json` parses with `JSON.parse`; `yaml` with YAML 1.2 (core schema: timestamps stay strings).
   * Either way a key repeated in one object is a `DocumentParseError` at its second occurrence.
   */
  format?: "json" | "yaml";
}

/**
 * Parses JSON or YAML into plain data, keeping enough of the source to map JSON Pointers back to
 * `file:line:column`. JSON is parsed by `JSON.parse` (exact numbers and strings); its locations
 * come from the YAML parser, which reads JSON as the YAML 1.2 subset it is, only when asked.
 * A duplicate key is an error in both formats: JSON.parse would keep the last value silently.
 */
export function parseSourceDocument(text: string, options: ParseSourceOptions = {}): SourceDocument {
  const { file } = options;
  // A byte order mark is not content: JSON.parse rejects it, and it would shift line 1's columns.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = options.format ?? (file && /\.ya?ml$/i.test(file) ? "yaml" : file?.endsWith(".json") ? "json" : sniffFormat(text));
  let value: unknown;
  let yamlTree: ReturnType<typeof parseYamlTree> | undefined;
  const tree = () => (yamlTree ??= parseYamlTree(text, file, format === "json"));

  if (format === "json") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw jsonSyntaxError(error as SyntaxError, text, file);
    }
    const duplicate = jsonDuplicateKey(text);
    if (duplicate) throw new DocumentParseError(`duplicate key ${JSON.stringify(duplicate.key)}`, file, offsetLocation(text, duplicate.offset));
  } else {
    value = tree().value;
  }

  const locate = (pointer: string): SourceLocation => {
    const { doc, contents, lineCounter } = tree();
    let node: Node | null = contents;
    let offset = node?.range?.[0] ?? 0;
    for (const token of parsePointer(pointer)) {
      // Below an alias, the values are those of the anchored node.
      if (isAlias(node)) node = doc ? ((node.resolve(doc) as Node | undefined) ?? null) : null;
      const next = childNode(node, token);
      if (!next) break;
      node = next.node;
      offset = next.offset;
    }
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  return {
    value,
    file,
    format,
    locate,
    describe(pointer) {
      const { line, column } = locate(pointer);
      return `${file ? `${file}:` : ""}${line}:${column}`;
    },
  };
}

function sniffFormat(text: string): "json" | "yaml" {
  return /^\s*[[{]/.test(text) ? "json" : "yaml";
}

/**
 * For JSON, the tree only serves locations of a text JSON.parse accepted, so what YAML alone
 * refuses (a lone CR) must not make `locate` throw.
 */
function parseYamlTree(text: string, file: string | undefined, json: boolean) {
  const lineCounter = new LineCounter();
  const duplicates: string[] = [];
  // Keys are the same when toJS would give them the same property name (`1` and "1", `~` and ""),
  // so that no value is dropped silently; each match is one DUPLICATE_KEY error, in order.
  const sameKey = (a: unknown, b: unknown) => {
    const same = a === b || (isScalar(a) && isScalar(b) && keyName(a) === keyName(b));
    if (same) duplicates.push(keyName(b as Node) ?? "");
    return same;
  };
  // Without resolveKnownTags, explicit YAML 1.1 tags (!!set, !!omap, !!binary, !!timestamp) give
  // plain data (a map, a sequence, a string) instead of a Set, a Map, a Uint8Array or a Date.
  // A lone CR is a line break in JSON (and to editors), but one YAML refuses: read it as a LF, which
  // keeps every offset, so that locations count lines as offsetLocation does.
  if (json) text = text.replace(/\r(?!\n)/g, "\n");
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const deep = tooDeep(tokens);
  if (deep !== undefined) {
    // The YAML library composes recursively, and deep enough input exhausts the stack, at worst
    // fatally (V8 aborts the process when it happens while compiling a regex). JSON.parse has no
    // such limit, so a deep JSON document is kept, only without locations.
    if (json) return { doc: undefined, contents: null, lineCounter, value: undefined };
    const { line, col } = lineCounter.linePos(deep);
    throw new DocumentParseError(`nested more than ${MAX_DEPTH} levels deep`, file, { line, column: col });
  }
  let doc: Document.Parsed | undefined;
  // As the library's parseDocument does: the first document, and an error for a second one.
  for (const next of new Composer({ resolveKnownTags: false, uniqueKeys: json ? false : sameKey }).compose(tokens, true, text.length)) {
    if (doc) {
      doc.errors.push(new YAMLParseError(next.range.slice(0, 2) as [number, number], "MULTIPLE_DOCS", "Source contains multiple documents"));
      break;
    }
    doc = next;
  }
  if (!doc) throw new Error("unreachable: compose always ends with a document");
  const [error] = doc.errors;
  if (error && !json) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    const reason = error.code === "DUPLICATE_KEY" ? `duplicate key ${JSON.stringify(duplicates[0])}` : error.message.split("\n")[0]!;
    throw new DocumentParseError(reason, file, { line, column: col });
  }
  let value: unknown;
  if (!json) {
    try {
      value = doc.toJS({ maxAliasCount: 10_000 });
    } catch (error) {
      // toJS throws a bare ReferenceError for an alias to no anchor and for an alias bomb: say where.
      if (!(error instanceof ReferenceError)) throw error;
      const alias = firstAlias(doc, error.message.startsWith("Unresolved"));
      const { line, col } = lineCounter.linePos(alias?.range?.[0] ?? 0);
      throw new DocumentParseError(error.message, file, { line, column: col });
    }
  }
  return { doc, contents: doc.contents, lineCounter, value };
}

/** Collections nested deeper than this are refused: real documents stay far below it. */
const MAX_DEPTH = 256;

/** The offset of the first node nested more than MAX_DEPTH collections deep, if there is one (walked without recursion). */
function tooDeep(tokens: readonly CST.Token[]): number | undefined {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) return token.offset;
    if (token.type === "document") {
      if (token.value) stack.push({ token: token.value, depth });
    } else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      for (const item of token.items) {
        if ("key" in item && item.key) stack.push({ token: item.key, depth: depth + 1 });
        if (item.value) stack.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** The first alias of the document (with `unresolved`, the first that names no earlier anchor). */
function firstAlias(doc: Document.Parsed, unresolved: boolean): Alias | undefined {
  let found: Alias | undefined;
  visit(doc, {
    Alias(_, alias) {
      if (unresolved && alias.resolve(doc)) return;
      found = alias;
      return visit.BREAK;
    },
  });
  return found;
}

/** The property name toJS gives a scalar key (a null key is ""); undefined for other keys. */
function keyName(key: unknown): string | undefined {
  if (!isScalar(key)) return undefined;
  return key.value === null ? "" : String(key.value);
}

function childNode(node: Node | null, token: string): { node: Node | null; offset: number } | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      if (keyName(pair.key) !== token) continue;
      const value = pair.value as Node | null;
      const offset = value?.range?.[0] ?? (pair.key as Node).range?.[0] ?? 0;
      return { node: value, offset };
    }
    return undefined;
  }
  if (isSeq(node) && /^(0|[1-9]\d*)$/.test(token)) {
    const item = node.items[Number(token)] as Node | undefined;
    return item?.range ? { node: item, offset: item.range[0] } : undefined;
  }
  return undefined;
}

function jsonSyntaxError(error: SyntaxError, text: string, file: string | undefined): DocumentParseError {
  const match = /position (\d+)/.exec(error.message);
  // V8's "Unexpected token 'x', "…" is not valid JSON" has no position: find it by scanning.
  const position = match ? Number(match[1]) : jsonErrorOffset(text);
  const location = offsetLocation(text, position);
  const reason = error.message
    .replace(/^JSON\.parse: /, "")
    // " at position 8" (after "…after JSON" too) is the 0-based offset the location already gives.
    .replace(/ (in JSON )?at position \d+.*$/, "")
    // The quoted source text says nothing the location does not, and may be long or secret.
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, "");
  return new DocumentParseError(reason, file, location);
}

function offsetLocation(text: string, offset: number): SourceLocation {
  const before = text.slice(0, offset).split(/\r\n?|\n/);
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** The offset of the first character that makes `text` invalid JSON (RFC 8259), or its length. */
export function jsonErrorOffset(text: string): number {
  return scanJson(text, false).end;
}

/**
 * The first key repeated within one object of a text JSON.parse accepted: its name as JSON.parse
 * reads it, and the offset of its second occurrence.
 */
function jsonDuplicateKey(text: string): { key: string; offset: number } | undefined {
  return scanJson(text, true).duplicate;
}

/**
 * One pass over a JSON text: where it stops being valid JSON, and with `keys`, the first key an
 * object repeats (the scan stops there).
 */
function scanJson(text: string, keys: boolean): { end: number; duplicate?: { key: string; offset: number } } {
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
  const value = (): void => {
    skip();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      skip();
      if (text[i] === close) return void i++;
      const seen = keys && c === "{" ? new Set<string>() : undefined;
      for (;;) {
        if (c === "{") {
          skip();
          const start = i;
          string();
          if (seen) {
            let key = text.slice(start + 1, i - 1);
            if (key.includes("\\")) key = JSON.parse(`"${key}"`) as string;
            if (seen.has(key)) throw { key, offset: start };
            seen.add(key);
          }
          skip();
          expect(":");
        }
        value();
        skip();
        if (text[i] !== ",") return expect(close);
        i++;
      }
    }
    if (c === '"') return string();
    for (const word of ["true", "false", "null"]) {
      if (c !== word[0]) continue;
      for (const letter of word) expect(letter);
      return;
    }
    number();
  };
  try {
    value();
    skip();
    return { end: i };
  } catch (at) {
    // A number is where it failed; anything else (a stack overflow on deep nesting) tells nothing,
    // so a text nested too deep for this scan is not checked for duplicates.
    if (typeof at === "number") return { end: at };
    if (at instanceof Error) return { end: text.length };
    return { end: text.length, duplicate: at as { key: string; offset: number } };
  }
}

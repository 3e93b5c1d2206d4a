import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument as parseYaml, type Document, type Node } from "yaml";
import { parsePointer } from "./validation.js";

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
  /** `json` parses with `JSON.parse`; `yaml` with YAML 1.2 (core schema: timestamps stay strings). */
  format?: "json" | "yaml";
}

/**
 * Parses JSON or YAML into plain data, keeping enough of the source to map JSON Pointers back to
 * `file:line:column`. JSON is parsed by `JSON.parse` (exact numbers and strings); its locations
 * come from the YAML parser, which reads JSON as the YAML 1.2 subset it is, only when asked.
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
  } else {
    value = tree().value;
  }

  const locate = (pointer: string): SourceLocation => {
    const { doc, contents, lineCounter } = tree();
    let node: Node | null = contents;
    let offset = node?.range?.[0] ?? 0;
    for (const token of parsePointer(pointer)) {
      // Below an alias, the values are those of the anchored node.
      if (isAlias(node)) node = (node.resolve(doc) as Node | undefined) ?? null;
      const next = childNode(node, token, format === "json");
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
 * refuses (duplicate keys, a lone CR) must not make `locate` throw.
 */
function parseYamlTree(text: string, file: string | undefined, json: boolean) {
  const lineCounter = new LineCounter();
  const doc: Document.Parsed = parseYaml(text, { lineCounter, prettyErrors: false, uniqueKeys: !json });
  const [error] = doc.errors;
  if (error && !json) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new DocumentParseError(error.message.split("\n")[0]!, file, { line, column: col });
  }
  return { doc, contents: doc.contents, lineCounter, value: json ? undefined : (doc.toJS({ maxAliasCount: 10_000 }) as unknown) };
}

/** `last`: of duplicate keys, the last one counts (JSON.parse); YAML refuses duplicates. */
function childNode(node: Node | null, token: string, last: boolean): { node: Node | null; offset: number } | undefined {
  if (isMap(node)) {
    const items = last ? [...node.items].reverse() : node.items;
    for (const pair of items) {
      if (!isPair(pair)) continue;
      // As toJS names keys: a null key is "".
      const key = isScalar(pair.key) ? (pair.key.value === null ? "" : String(pair.key.value)) : undefined;
      if (key !== token) continue;
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
  const before = text.slice(0, position).split("\n");
  const location = { line: before.length, column: before[before.length - 1]!.length + 1 };
  const reason = error.message
    .replace(/^JSON\.parse: /, "")
    .replace(/ in JSON at position \d+.*$/, "")
    // The quoted source text says nothing the location does not, and may be long or secret.
    .replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, "");
  return new DocumentParseError(reason, file, location);
}

/** The offset of the first character that makes `text` invalid JSON (RFC 8259), or its length. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const skip = () => {
    while (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r") i++;
  };
  const expect = (c: string) => {
    if (text[i] !== c) throw i;
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
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
    while (text[i]! >= "0" && text[i]! <= "9") i++;
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
      for (;;) {
        if (c === "{") {
          skip();
          string();
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
    for (const word of ["true", "false", "null"]) if (c === word[0]) return [...word].forEach(expect);
    number();
  };
  try {
    value();
    skip();
    return i;
  } catch (at) {
    // A number is where it failed; anything else (a stack overflow on deep nesting) tells nothing.
    return typeof at === "number" ? at : text.length;
  }
}

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument as parseYaml, type Node } from "yaml";
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
  const format = options.format ?? (file && /\.ya?ml$/i.test(file) ? "yaml" : file?.endsWith(".json") ? "json" : sniffFormat(text));
  let value: unknown;
  let yamlTree: ReturnType<typeof parseYamlTree> | undefined;
  const tree = () => (yamlTree ??= parseYamlTree(text, file));

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
    const { contents, lineCounter } = tree();
    let node: Node | null = contents;
    let offset = node?.range?.[0] ?? 0;
    for (const token of parsePointer(pointer)) {
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

function parseYamlTree(text: string, file: string | undefined) {
  const lineCounter = new LineCounter();
  const doc = parseYaml(text, { lineCounter, prettyErrors: false });
  const [error] = doc.errors;
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new DocumentParseError(error.message.split("\n")[0]!, file, { line, column: col });
  }
  return { contents: doc.contents, lineCounter, value: doc.toJS({ maxAliasCount: 10_000 }) as unknown };
}

function childNode(node: Node | null, token: string): { node: Node | null; offset: number } | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
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
  const position = match ? Number(match[1]) : text.length;
  const before = text.slice(0, position).split("\n");
  const location = { line: before.length, column: before[before.length - 1]!.length + 1 };
  const reason = error.message.replace(/^JSON\.parse: /, "").replace(/ in JSON at position \d+.*$/, "");
  return new DocumentParseError(reason, file, location);
}

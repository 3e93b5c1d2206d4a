import { Composer, YAMLParseError, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, visit, type Alias, type CST, type Document, type Node, type Pair, type YAMLMap } from "yaml";
import { parseJsonDocument, sourceDocument, sourceFormat } from "./json.js";
import { MAX_DEPTH } from "./json-scan.js";
import { JsonFloat } from "./json-numbers.js";
import { DocumentParseError, type SourceDocument } from "./source-document.js";
import { parsePointer } from "./validation.js";

export { DocumentParseError, type SourceDocument, type SourceLocation } from "./source-document.js";

export interface ParseSourceOptions {
  /** Used in locations and errors; its extension picks the format when `format` is not given. */
  file?: string;
  /**
   * `json` parses with `JSON.parse`; `yaml` with YAML 1.2 (core schema: timestamps stay strings).
   * Either way a key repeated in one object is a `DocumentParseError` at its second occurrence, and
   * so is a value nested more than 256 collections deep.
   */
  format?: "json" | "yaml";
  /**
   * Keep the integer/float distinction of the text: a number with an integral value written as a
   * float (`1.0`, `1e3`, in JSON as in YAML) becomes a `JsonFloat`, which `stringifyJson` writes
   * back as `1.0`. Off by default: the value holds plain numbers.
   */
  keepFloats?: boolean;
}

/**
 * Parses JSON or YAML into plain data, keeping enough of the source to map JSON Pointers back to
 * `file:line:column`. JSON is parsed by `JSON.parse` (exact numbers and strings); its locations
 * come from a scan of the text, only for the pointers asked about. A duplicate key is an error in
 * both formats (JSON.parse would keep the last value silently), and so is a value nested more than
 * 256 collections deep (code that walks the value recursively would exhaust the stack).
 */
export function parseSourceDocument(text: string, options: ParseSourceOptions = {}): SourceDocument {
  const { file } = options;
  const format = options.format ?? sourceFormat(text, file);
  if (format === "json") return parseJsonDocument(text, options);
  // A byte order mark is not content: it would shift line 1's columns.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const tree = parseYamlTree(text, file, options.keepFloats ?? false);
  return sourceDocument(tree.value, file, "yaml", (pointer) => {
    const { doc, lineCounter } = tree;
    let node: Node | null = doc.contents;
    let offset = node?.range?.[0] ?? 0;
    for (const token of parsePointer(pointer)) {
      // Below an alias, the values are those of the anchored node.
      if (isAlias(node)) node = (node.resolve(doc) as Node | undefined) ?? null;
      const next = childNode(node, token);
      if (!next) break;
      node = next.node;
      offset = next.offset;
    }
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  });
}

function parseYamlTree(text: string, file: string | undefined, keepFloats: boolean) {
  const lineCounter = new LineCounter();
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const fail = (offset: number, reason: string) => {
    const { line, col } = lineCounter.linePos(offset);
    return new DocumentParseError(reason, file, { line, column: col });
  };
  refuseDeepYaml(tokens, lineCounter, file);
  let doc: Document.Parsed | undefined;
  // As the library's parseDocument does: the first document, and an error for a second one.
  // Without resolveKnownTags, explicit YAML 1.1 tags (!!set, !!omap, !!binary, !!timestamp) give
  // plain data (a map, a sequence, a string) instead of a Set, a Map, a Uint8Array or a Date.
  // Duplicate keys are found below, in one pass: the library's check compares each key with every
  // earlier one of its mapping, which takes minutes for a mapping of 40,000 keys.
  for (const next of new Composer({ resolveKnownTags: false, uniqueKeys: false }).compose(tokens, true, text.length)) {
    if (doc) {
      doc.errors.push(new YAMLParseError(next.range.slice(0, 2) as [number, number], "MULTIPLE_DOCS", "Source contains multiple documents"));
      break;
    }
    doc = next;
  }
  if (!doc) throw new Error("unreachable: compose always ends with a document");
  // The first error in the text (the library reports some, such as a comment after a mapping, late).
  const error = doc.errors.reduce<YAMLParseError | undefined>((first, next) => (first && first.pos[0] <= next.pos[0] ? first : next), undefined);
  const duplicate = firstDuplicateKey(doc);
  if (duplicate && (!error || duplicate.offset <= error.pos[0])) throw fail(duplicate.offset, `duplicate key ${JSON.stringify(duplicate.key)}`);
  if (error) throw fail(error.pos[0], error.message.split("\n")[0]!);
  if (keepFloats) markFloats(doc);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 10_000 });
  } catch (error) {
    // toJS throws a bare ReferenceError for an alias to no anchor and for an alias bomb: say where.
    if (!(error instanceof ReferenceError)) throw error;
    const alias = firstAlias(doc, error.message.startsWith("Unresolved"));
    throw fail(alias?.range?.[0] ?? 0, error.message);
  }
  return { doc, lineCounter, value };
}

/**
 * The first key (in the text) that repeats an earlier key of its mapping. Keys are the same when
 * toJS would give them the same property name (`1` and "1", `~` and ""), so that no value is
 * dropped silently; keys that are not scalars (collections, aliases) are never the same.
 */
function firstDuplicateKey(doc: Document.Parsed): { key: string; offset: number } | undefined {
  let first: { key: string; offset: number } | undefined;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const name = keyName(pair.key);
        if (name === undefined) continue;
        const offset = (pair.key as Node).range?.[0] ?? 0;
        if (seen.has(name) && (!first || offset < first.offset)) first = { key: name, offset };
        seen.add(name);
      }
    },
  });
  return first;
}

/**
 * Throws a `DocumentParseError` at the first node of a YAML text nested more than 256 collections
 * deep, for code that composes YAML with its own options. The YAML library composes recursively,
 * and deep enough input exhausts the stack, at worst fatally (V8 aborts the process when it happens
 * while compiling a regex), so this check walks the tokens without recursion, before composing.
 */
export function checkYamlNesting(text: string, file?: string): void {
  const lineCounter = new LineCounter();
  refuseDeepYaml([...new Parser(lineCounter.addNewLine).parse(text)], lineCounter, file);
}

function refuseDeepYaml(tokens: readonly CST.Token[], lineCounter: LineCounter, file: string | undefined): void {
  const deep = tooDeep(tokens);
  if (deep === undefined) return;
  const { line, col } = lineCounter.linePos(deep);
  throw new DocumentParseError(`nested more than ${MAX_DEPTH} levels deep`, file, { line, column: col });
}

const FLOAT_TAG = "tag:yaml.org,2002:float";
/** A plain scalar the core schema reads as a float (not as an integer: `0xE` has an E too). */
const FLOAT_SOURCE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*|[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+|\.[0-9]+[eE][-+]?[0-9]+)$/;

/** Makes each float scalar value with an integral value (`1.0`, `1e3`, `1.`) a JsonFloat (toJS keeps it as it is). */
function markFloats(doc: Document.Parsed): void {
  visit(doc, {
    Scalar(key, scalar) {
      // Keys stay as they were: a property name is a string either way.
      if (key === "key") return;
      const value = scalar.value;
      if (typeof value !== "number" || !Number.isInteger(value)) return;
      const float = scalar.tag === FLOAT_TAG || (scalar.tag === undefined && scalar.type === "PLAIN" && FLOAT_SOURCE.test(scalar.source ?? ""));
      if (float) scalar.value = new JsonFloat(value);
    },
  });
}

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

/** Each mapping's pairs by key name, made the first time a pointer goes through it. */
const pairsByName = new WeakMap<YAMLMap, Map<string, Pair>>();

function childNode(node: Node | null, token: string): { node: Node | null; offset: number } | undefined {
  if (isMap(node)) {
    let pairs = pairsByName.get(node);
    if (!pairs) {
      pairs = new Map();
      for (const pair of node.items) {
        const name = keyName(pair.key);
        if (name !== undefined && !pairs.has(name)) pairs.set(name, pair);
      }
      pairsByName.set(node, pairs);
    }
    const pair = pairs.get(token);
    if (!pair) return undefined;
    const value = pair.value as Node | null;
    const offset = value?.range?.[0] ?? (pair.key as Node).range?.[0] ?? 0;
    return { node: value, offset };
  }
  if (isSeq(node) && /^(0|[1-9]\d*)$/.test(token)) {
    const item = node.items[Number(token)] as Node | undefined;
    return item?.range ? { node: item, offset: item.range[0] } : undefined;
  }
  return undefined;
}

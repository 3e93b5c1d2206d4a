import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import type { CompiledValidator } from "@flowspec/runtime";
import { corpusDir, seededRandom } from "../../../test/support.js";
import { referenceRoots, SCHEMA_SETS, type ReferenceRoot, type SchemaSet } from "./reference.js";

/**
 * The property behind the verdict tests (codegen/test/verdicts.property.test.ts, bounded) and
 * bench/properties.ts (100× the cases): every generated validator, of every root and variant of the
 * four specs and the codegen-other-repo example, agrees with ajv compiling the verbatim schemas at
 * run time on random documents: the same verdict, the same number of errors (`errorCount`), and,
 * whatever `maxErrors` is, the first `maxErrors` of ajv's errors.
 */

/** One generated validator, its reference, and documents to start from. */
export interface ValidatorCase extends ReferenceRoot {
  generated: CompiledValidator;
  /** Documents valid for this root (mutated most often), and every seed of its schema set. */
  valid: unknown[];
  seeds: unknown[];
}

/** Every generated validator of every schema set, beside ajv compiling the same schema at run time. */
export async function validatorCases(): Promise<ValidatorCase[]> {
  const cases: ValidatorCase[] = [];
  for (const set of SCHEMA_SETS) {
    const seeds = seedsOf(set);
    const modules = new Map<string, Record<string, CompiledValidator>>();
    for (const root of referenceRoots(set)) {
      if (!modules.has(root.variant)) {
        modules.set(root.variant, (await import(pathToFileURL(join(set.outDir, `validators.${root.variant}.ts`)).href)) as Record<string, CompiledValidator>);
      }
      const generated = modules.get(root.variant)![root.root]!;
      const schema = JSON.parse(((await import(pathToFileURL(join(set.outDir, `json-schemas.${root.variant}.ts`)).href)) as Record<string, string>)[root.root]!) as object;
      const candidates = [...seeds, ...Array.from({ length: 8 }, (_, pick) => exampleOf(schema, schema, pick, 0))];
      cases.push({ ...root, generated, seeds, valid: candidates.filter((candidate) => root.reference(candidate)) });
    }
  }
  return cases;
}

/** Whether the generated validator answers as ajv does for one document and one `maxErrors` (undefined: the default). */
export function agreesWithAjv(c: ValidatorCase, document: unknown, maxErrors: number | undefined): boolean {
  const verdict = c.reference(document);
  const all = c.reference.errors ?? [];
  const valid = maxErrors === undefined ? c.generated(document) : c.generated(document, { maxErrors });
  if (valid !== verdict) throw new Error(`verdict ${valid}, ajv ${verdict}`);
  if (c.generated.errorCount !== all.length) throw new Error(`errorCount ${c.generated.errorCount}, ajv found ${all.length}`);
  const kept = all.slice(0, maxErrors ?? 100);
  const errors = c.generated.errors ?? [];
  if (JSON.stringify(errors) !== JSON.stringify(kept)) throw new Error(`kept errors ${JSON.stringify(errors).slice(0, 300)}, ajv's first ${kept.length}: ${JSON.stringify(kept).slice(0, 300)}`);
  return true;
}

/** Cases per validator in `npm test`; bench/properties.ts runs 100 times as many. */
export const NUM_RUNS = 100;

/** `fc.assert` of `agreesWithAjv` on mutated documents, `numRuns` cases. */
export function assertAgreesWithAjv(c: ValidatorCase, numRuns: number, seed?: number): void {
  const maxErrors = fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 6 }), fc.constant(Infinity));
  fc.assert(
    fc.property(documentOf(c), maxErrors, (document, max) => agreesWithAjv(c, document, max)),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
}

// Documents: valid ones and seeds, changed at a few random places.

const SCALARS: unknown[] = [null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, -0, "", "x", "2025-01-01T00:00:00Z", "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d", "https://a.example/x", "a@b.example", [], {}];

/** One change at the node `at` (an index into the document's nodes, modulo their number). */
type Mutation = { at: number; op: number; pick: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.nat(9),
  pick: fc.nat(),
  value: fc.oneof(fc.constantFrom(...SCALARS), fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 8 })),
});

function documentOf(c: ValidatorCase): fc.Arbitrary<unknown> {
  const pool = subtrees(c.seeds);
  const keys = [...new Set(pool.flatMap((node) => (isObject(node) ? Object.keys(node) : [])))];
  const start = c.valid.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...c.valid), weight: 3 }, { arbitrary: fc.constantFrom(...c.seeds), weight: 1 }) : fc.constantFrom(...c.seeds);
  return fc.tuple(start, fc.array(mutation, { maxLength: 4 })).map(([document, mutations]) => {
    let result = structuredClone(document);
    for (const m of mutations) result = mutate(result, m, pool, keys);
    return result;
  });
}

/** Where a value sits in a document: its parent and key (none for the document itself). */
type Place = { parent?: Record<string, unknown> | unknown[]; key?: string | number; value: unknown };

function placesOf(document: unknown): Place[] {
  const out: Place[] = [{ value: document }];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach((item, key) => {
        out.push({ parent: value, key, value: item });
        visit(item);
      });
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        out.push({ parent: value, key, value: item });
        visit(item);
      }
    }
  };
  visit(document);
  return out;
}

/**
 * The document with one change, at a place of the kind the change needs: a key or item dropped or
 * added, a value of another type or from elsewhere in the corpus, a value nested deeply, a string
 * edited by a character, an item duplicated, values shuffled, a number at an edge.
 */
function mutate(document: unknown, m: Mutation, pool: readonly unknown[], keys: readonly string[]): unknown {
  const places = placesOf(document);
  const containers = places.filter((p) => Array.isArray(p.value) || isObject(p.value));
  const strings = places.filter((p) => typeof p.value === "string");
  const numbers = places.filter((p) => typeof p.value === "number");
  // Copies: the document is changed in place, and fast-check reuses the values it generated.
  const fromPool = pool.length > 0 ? structuredClone(pool[m.pick % pool.length]) : null;
  const generated = structuredClone(m.value);
  // As text (for a key, a character): JSON, since a generated object may have no prototype to make a string with.
  const text = typeof m.value === "string" ? m.value : (JSON.stringify(m.value) ?? "");
  const at = (list: Place[]) => list[m.at % list.length]!;
  const replace = ({ parent, key }: Place, by: unknown) => {
    if (parent === undefined) return by;
    (parent as Record<string | number, unknown>)[key!] = by;
    return document;
  };
  const missing = (m.op === 5 && strings.length === 0) || (m.op >= 8 && numbers.length === 0) || ([0, 1, 6, 7].includes(m.op) && containers.length === 0);
  switch (missing ? 2 : m.op) {
    case 0: {
      // a key or an item dropped
      const { value } = at(containers);
      if (Array.isArray(value)) value.splice(m.pick % Math.max(1, value.length), 1);
      else if (isObject(value) && Object.keys(value).length > 0) delete value[Object.keys(value)[m.pick % Object.keys(value).length]!];
      return document;
    }
    case 1: {
      // a key known to the schema set (or any) added, with some value
      const { value } = at(containers);
      const added = m.pick % 2 === 0 ? generated : fromPool;
      if (Array.isArray(value)) value.push(added);
      else (value as Record<string, unknown>)[keys.length > 0 && m.pick % 4 !== 0 ? keys[m.pick % keys.length]! : text] = added;
      return document;
    }
    case 2: // a value of another type
      return replace(at(places), generated);
    case 3: // a value from elsewhere in the corpus
      return replace(at(places), fromPool);
    case 4: {
      // deep nesting
      const place = at(places);
      let nested = place.value;
      for (let level = 0; level <= m.pick % 40; level++) nested = m.pick % 2 === 0 ? [nested] : { [keys[level % Math.max(1, keys.length)] ?? "a"]: nested };
      return replace(place, nested);
    }
    case 5: {
      // a string edited by a character
      const place = at(strings);
      const value = place.value as string;
      const char = text.slice(0, 1) || " ";
      const i = m.pick % (value.length + 1);
      const edits = [value.slice(0, i) + value.slice(i + 1), value.slice(0, i) + char + value.slice(i), value.slice(0, i) + char + value.slice(i + 1), value.toUpperCase(), `${value}${value}`];
      return replace(place, edits[m.pick % edits.length]);
    }
    case 6: {
      // an item duplicated (uniqueItems)
      const { value } = at(containers);
      if (Array.isArray(value) && value.length > 0) value.push(structuredClone(value[m.pick % value.length]));
      return document;
    }
    case 7: {
      // the values of an object shuffled, the items of an array reversed
      const { value } = at(containers);
      if (Array.isArray(value)) value.reverse();
      else if (isObject(value)) {
        const entries = Object.entries(value);
        entries.forEach(([key], i) => (value[key] = entries[(i + 1 + m.pick) % entries.length]![1]));
      }
      return document;
    }
    default: {
      // a number at an edge
      const place = at(numbers);
      const n = place.value as number;
      return replace(place, [n + 1, n - 1, -n, n / 2, n + 0.5, 2 ** 31, 2 ** 53 + 2][m.pick % 7]);
    }
  }
}

/** Every node of the values, in document order. */
function subtrees(values: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  const visit = (value: unknown) => {
    out.push(value);
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) Object.values(value).forEach(visit);
  };
  values.forEach(visit);
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

// Seeds: the corpus documents of each spec, documents of the tests, the schemas' own example
// values, and every part of them (a step of a flow is a seed for Step), sampled down to a few hundred.

const MAX_SEEDS = 400;

function seedsOf(set: SchemaSet): unknown[] {
  const documents = [...corpusDocuments(set.name), ...(KNOWN_DOCUMENTS[set.name] ?? []), ...schemaExamples(set.schemaDir)];
  const all = subtrees(documents).filter((node) => typeof node === "object" && node !== null);
  const random = seededRandom(7);
  const sample = all.length <= MAX_SEEDS ? all : Array.from({ length: MAX_SEEDS }, () => all[random(all.length)]);
  return [...documents, ...sample].map((seed) => structuredClone(seed));
}

function corpusDocuments(set: string): unknown[] {
  const read = (dir: string, test: (path: string) => boolean, parse: (text: string) => unknown) =>
    filesUnder(dir)
      .filter(test)
      .flatMap((path) => {
        try {
          return [parse(readFileSync(path, "utf8"))];
        } catch {
          return [];
        }
      });
  switch (set) {
    case "stepflow":
      return read(corpusDir("stepflow"), (p) => /\.(ya?ml|json)$/.test(p), (text) => parseYaml(text));
    case "agents-json":
      return read(corpusDir("agents-json"), (p) => p.endsWith("agents.json"), (text) => JSON.parse(text));
    case "apflow": {
      const { blocks } = JSON.parse(readFileSync(join(corpusDir("apflow"), "derived", "docs__protocol__json-blocks.json"), "utf8")) as { blocks: { raw: string }[] };
      return blocks.flatMap((block) => {
        try {
          return [JSON.parse(block.raw)];
        } catch {
          return [];
        }
      });
    }
    case "agent-service":
      return read(join(corpusDir("agent-service"), "spec/v1/examples"), (p) => p.endsWith(".json"), (text) => JSON.parse(text));
    default:
      return [];
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort((a, b) => relative(dir, a).localeCompare(relative(dir, b)));
}

/** `examples`, `default` and `const` values written in the schemas themselves. */
function schemaExamples(schemaDir: string): unknown[] {
  const out: unknown[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (Array.isArray(node.examples)) out.push(...node.examples);
    if ("default" in node) out.push(node.default);
    if ("const" in node) out.push(node.const);
    Object.values(node).forEach(visit);
  };
  for (const path of filesUnder(schemaDir).filter((p) => p.endsWith(".json") && !p.includes("overlays") && !p.endsWith("codegen.json"))) visit(JSON.parse(readFileSync(path, "utf8")));
  return out;
}

/**
 * A document made from a root's self-contained schema, often valid (the caller keeps those that
 * are): required properties, the first enum value, a value of the format, at least minItems items.
 * `pick` varies the choices (which union branch or type, whether optional properties are there), so
 * that different picks give different documents.
 */
function exampleOf(schema: unknown, root: object, pick: number, depth: number): unknown {
  if (schema === true || depth > 12) return {};
  if (!isObject(schema)) return null;
  if (typeof schema.$ref === "string") {
    const target = schema.$ref === "#" ? root : schema.$ref.split("/").slice(1).reduce<unknown>((node, token) => (isObject(node) ? node[token] : undefined), root);
    return exampleOf(target, root, pick, depth + 1);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[pick % schema.enum.length];
  const union = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(union)) {
    const branch = exampleOf(union[pick % union.length], root, pick, depth + 1);
    const own = exampleOf({ ...schema, oneOf: undefined, anyOf: undefined }, root, pick, depth + 1);
    return isObject(branch) && isObject(own) ? { ...own, ...branch } : branch;
  }
  if (Array.isArray(schema.allOf)) {
    const parts = [{ ...schema, allOf: undefined }, ...schema.allOf].map((part) => exampleOf(part, root, pick, depth + 1));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[parts.length - 1];
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : isObject(schema.properties) ? ["object"] : [];
  const type = types.filter((t) => t !== "null")[pick % Math.max(1, types.length - 1)] ?? types[0];
  switch (type) {
    case "object": {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const names = pick % 2 === 1 ? Object.keys(properties) : required;
      return Object.fromEntries([...new Set([...required, ...names])].map((name) => [name, exampleOf(properties[name] ?? {}, root, pick, depth + 1)]));
    }
    case "array": {
      const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
      const count = Math.max(Number(schema.minItems ?? 0), pick % 2, tuple.length);
      return Array.from({ length: count }, (_, i) => exampleOf(tuple[i] ?? (Array.isArray(schema.items) ? {} : (schema.items ?? {})), root, pick, depth + 1));
    }
    case "string":
      return FORMAT_EXAMPLES[String(schema.format)] ?? "x".repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case "integer":
    case "number":
      return Number(schema.minimum ?? (typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 1));
    case "boolean":
      return pick % 2 === 0;
    case "null":
      return null;
    default:
      return {};
  }
}

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  uuid: "0b6f3a4e-8c1d-4f2a-9e3b-5d7c1a2b3c4d",
  uri: "https://a.example/x",
  email: "a@b.example",
};

/** Valid documents of the kinds the corpus has none of, as the packages' tests write them. */
const KNOWN_DOCUMENTS: Record<string, unknown[]> = {
  stepflow: [
    { flow: { schema: "https://stepflow.org/schemas/v1/flow.json", steps: [{ id: "a", component: "/builtin/echo", input: { $from: { workflow: "input" } } }] }, input: {} },
    { result: { outcome: "success", result: { x: 1 } } },
  ],
  "agent-service": [
    {
      runId: "run-1",
      orgId: "org-1",
      resourceType: "tool",
      resourceId: "tool-1",
      input: { mode: "tool", arguments: { q: 1 } },
      attempts: [],
      eventSequence: 0,
      createdAt: "2025-01-01T00:00:00Z",
      updatedAt: "2025-01-01T00:00:00Z",
    },
    { resourceType: "agent", resourceId: "a", input: { mode: "agent", messages: [] } },
    { resourceType: "mcp_server", resourceId: "m", input: { mode: "mcp_server", clientInfo: {}, clientCapabilities: {} } },
  ],
  "codegen-other-repo": [
    {
      id: "inv_1001",
      customer: { id: "cus_42", email: "ada@example.com", name: "Ada Lovelace", address: { line1: "12 St James's Square", city: "London", country: "GB" } },
      currency: "GBP",
      lines: [
        { description: "Analytical engine consulting", quantity: 3, unitAmount: 12_500 },
        { description: "Punched cards", quantity: 200, unitAmount: 5 },
      ],
      status: "open",
      dueDate: "2026-12-01",
    },
  ],
};

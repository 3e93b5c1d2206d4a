import { codeOutsideStrings } from "./ajv-code.js";

/**
 * One statement at the top level of a generated validators module: a function or `const` it
 * declares (`validateN`, `schemaN`, `patternN`, `funcN`, `formatsN`, `wrapperN`, a helper), or
 * anything else (imports, exports, comments).
 */
interface Item {
  text: string;
  /** Where the text starts in the module. */
  from: number;
  /** The name a `function` or `const` item declares. */
  name?: string;
  kind: "function" | "const" | "other";
  /** The names declared in the module that the item reads, in order of appearance (outside strings). */
  refs: string[];
  /** The text with each of those names replaced by a NUL: two items of equal skeleton differ at most in the names they read. */
  skeleton: string;
}

/** An identifier, not a property name (`data.x`); search masked code with it (codeOutsideStrings). */
const IDENTIFIER = /(?<![\w$.])[A-Za-z_$][\w$]*/g;

/** The module's top-level statements, each with the names of the module it reads. */
function topLevelItems(code: string): Item[] {
  const masked = codeOutsideStrings(code);
  const spans: [number, number][] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= masked.length; i++) {
    const ch = masked[i];
    if (ch === "{" || ch === "(" || ch === "[") depth++;
    else if (ch === "}" || ch === ")" || ch === "]") depth--;
    else if ((ch === "\n" || ch === undefined) && depth === 0) {
      if (code.slice(start, i).trim() !== "") spans.push([start, i]);
      start = i + 1;
    }
  }
  if (depth !== 0) throw new Error("the validators module has unbalanced brackets outside its strings; codegen cannot split it");
  const declared = new Map<string, number>();
  const items = spans.map(([from, to]): Item => {
    const text = code.slice(from, to);
    const fn = /^function ([A-Za-z_$][\w$]*)\(/.exec(text);
    const constant = /^const ([A-Za-z_$][\w$]*) = /.exec(text);
    const name = fn?.[1] ?? constant?.[1];
    if (name !== undefined) declared.set(name, (declared.get(name) ?? 0) + 1);
    return { text, from, name, kind: fn ? "function" : constant ? "const" : "other", refs: [], skeleton: text };
  });
  for (const [name, count] of declared) if (count > 1) throw new Error(`the validators module declares ${name} ${count} times`);
  for (const [index, item] of items.entries()) {
    const [from] = spans[index]!;
    const maskedText = masked.slice(from, from + item.text.length);
    let skeleton = "";
    let copied = 0;
    for (const found of maskedText.matchAll(IDENTIFIER)) {
      if (!declared.has(found[0])) continue;
      item.refs.push(found[0]);
      skeleton += item.text.slice(copied, found.index) + "\0";
      copied = found.index + found[0].length;
    }
    item.skeleton = skeleton + item.text.slice(copied);
  }
  return items;
}

/**
 * The functions of a variant's module that are equal to one of the default variant's module: the
 * same text but for the names of what they read, where each pair of names read at the same place
 * is itself equal (a function or a `const` of the same text, by the same rule). This is the
 * greatest such relation, so that recursive validators pair up; a pair in it behaves the same on
 * every input, errors and their `schemaPath`s included (those are in the text). Returns, for each
 * variant function that has an equal, the first equal default function (in module order).
 */
export function equalFunctions(variantCode: string, defaultCode: string): Map<string, string> {
  return equalItems(topLevelItems(variantCode), topLevelItems(defaultCode));
}

/** `equalFunctions` of two modules' items. */
function equalItems(variantItems: readonly Item[], baseItems: readonly Item[]): Map<string, string> {
  const variant = variantItems.filter((item) => item.name !== undefined);
  const base = baseItems.filter((item) => item.name !== undefined);
  const baseByName = new Map(base.map((item) => [item.name!, item]));
  // Candidate pairs: same kind, same skeleton.
  const bySkeleton = new Map<string, Item[]>();
  for (const item of base) bySkeleton.set(item.skeleton, [...(bySkeleton.get(item.skeleton) ?? []), item]);
  const pairs = new Map<string, Set<string>>();
  for (const item of variant) {
    const candidates = (bySkeleton.get(item.skeleton) ?? []).filter((other) => other.kind === item.kind && other.refs.length === item.refs.length);
    if (candidates.length > 0) pairs.set(item.name!, new Set(candidates.map((other) => other.name!)));
  }
  const variantByName = new Map(variant.map((item) => [item.name!, item]));
  // Drop pairs whose reads do not pair up, until none is dropped.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, partners] of pairs) {
      const item = variantByName.get(name)!;
      for (const partner of partners) {
        const other = baseByName.get(partner)!;
        if (item.refs.every((ref, i) => pairs.get(ref)?.has(other.refs[i]!) ?? false)) continue;
        partners.delete(partner);
        changed = true;
      }
      if (partners.size === 0) pairs.delete(name);
    }
  }
  const equal = new Map<string, string>();
  for (const item of variant) {
    if (item.kind !== "function") continue;
    const partners = pairs.get(item.name!);
    const first = partners && base.find((other) => partners.has(other.name!));
    if (first) equal.set(item.name!, first.name!);
  }
  return equal;
}

/**
 * A variant's validators module that imports, from the default variant's module, every function
 * equal to one of that module (see `equalFunctions`) instead of declaring its own copy, and drops
 * what only those copies read. Returns the variant's new code and the names of the default module's
 * functions it imports (which `exportShared` then exports). A program that loads both
 * variants (a package's `/validate` entry does) then compiles each shared validator once: 23 of
 * Agent Service's 35 response validators are the strict ones.
 */
export function shareEqualFunctions(variantCode: string, defaultCode: string, defaultModule: string): { variant: string; imported: string[] } {
  const items = topLevelItems(variantCode);
  const equal = equalItems(items, topLevelItems(defaultCode));
  if (equal.size === 0) return { variant: variantCode, imported: [] };
  const kept = items.filter((item) => !(item.name !== undefined && equal.has(item.name)));
  // What is still read from the statements that are not declarations (exports), transitively.
  const byName = new Map(kept.filter((item) => item.name !== undefined).map((item) => [item.name!, item]));
  const reached = new Set<string>();
  const visit = (names: readonly string[]) => {
    for (const name of names) {
      const item = byName.get(name);
      if (!item || reached.has(name)) continue;
      reached.add(name);
      visit(item.refs);
    }
  };
  for (const item of kept) if (item.kind === "other") visit(item.refs);
  const remaining = kept.filter((item) => item.kind === "other" || reached.has(item.name!));
  const reads = new Set(remaining.flatMap((item) => item.refs));
  const imported = [...equal].filter(([name]) => reads.has(name)).sort(([a], [b]) => compareNames(a, b));
  const lastImport = remaining.filter((item) => item.text.startsWith("import ")).at(-1);
  if (!lastImport) throw new Error("the validators module has no imports to add the shared validators after");
  // The module less the dropped statements (each with the line break after it), the import added.
  const keep = new Set(remaining);
  let variant = "";
  let copied = 0;
  for (const item of items) {
    const end = item.from + item.text.length;
    if (keep.has(item)) {
      if (item === lastImport && imported.length > 0) {
        variant += variantCode.slice(copied, end) + `\nimport { ${imported.map(([name, base]) => (name === base ? name : `${base} as ${name}`)).join(", ")} } from ${JSON.stringify(defaultModule)};`;
        copied = end;
      }
      continue;
    }
    variant += variantCode.slice(copied, item.from);
    copied = end + /^\n*/.exec(variantCode.slice(end))![0].length;
  }
  variant = pruneRuntimeImports(variant + variantCode.slice(copied));
  return { variant, imported: [...new Set(imported.map(([, base]) => base))] };
}

/** The default variant's module with the functions other variants import from it exported. */
export function exportShared(defaultCode: string, names: ReadonlySet<string>): string {
  return `${defaultCode.replace(/\n*$/, "")}\n\nexport { ${[...names].sort(compareNames).join(", ")} };`;
}

/** `validate9` before `validate10`. */
function compareNames(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/** The runtime import line less the names nothing reads any more. */
function pruneRuntimeImports(code: string): string {
  return code.replace(/^import \{ ([^}]*) \} from "(@flowspec\/runtime\/ajv)";$/m, (line, names: string, module: string) => {
    const rest = codeOutsideStrings(code.replace(line, ""));
    const used = names.split(", ").filter((name) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(rest));
    return used.length > 0 ? `import { ${used.join(", ")} } from "${module}";` : "\0";
  }).replace(/^\0\n/m, "");
}

/**
 * The module with each function that equals an earlier one of the same module (see
 * `equalFunctions`) dropped, and every read of its name made a read of that earlier one. ajv
 * compiles a schema once per way it is reached: a root that another root also uses (Agent
 * Service's `RunInput` inside `Run`), or a definition reached by two URIs, gives two functions of
 * the same text, and a cold program would compile both.
 */
export function dropEqualFunctions(code: string): string {
  const items = topLevelItems(code);
  // The module against itself: each function pairs at least with itself, and `equalItems` gives the
  // first equal function in module order, an earlier one or itself.
  const canonical = new Map<string, string>();
  for (const [name, first] of equalItems(items, items)) if (first !== name) canonical.set(name, first);
  if (canonical.size === 0) return code;
  let rewritten = "";
  let copied = 0;
  for (const item of items) {
    const end = item.from + item.text.length;
    rewritten += code.slice(copied, item.from);
    if (item.name !== undefined && canonical.has(item.name)) {
      copied = end + /^\n*/.exec(code.slice(end))![0].length;
      continue;
    }
    rewritten += item.refs.some((ref) => canonical.has(ref)) ? renameOutsideStrings(item.text, canonical) : item.text;
    copied = end;
  }
  return rewritten + code.slice(copied);
}

/** The code with each identifier that `names` maps (outside strings, not after a dot) replaced. */
function renameOutsideStrings(code: string, names: ReadonlyMap<string, string>): string {
  const masked = codeOutsideStrings(code);
  let rewritten = "";
  let copied = 0;
  for (const found of masked.matchAll(IDENTIFIER)) {
    const target = names.get(found[0]);
    if (target === undefined) continue;
    rewritten += code.slice(copied, found.index) + target;
    copied = found.index + found[0].length;
  }
  return rewritten + code.slice(copied);
}

/**
 * Route patterns (protocol notes §4.4): literal segments, `{name}` (exactly one segment) and
 * `{*name}` (the rest of the path, at least one character, last). Literal segments win over
 * parameters, parameters over catch-alls; matching backtracks when a preferred branch fails.
 */
import { isErrorInstance } from "@flowspec/runtime";

export type Params = Record<string, string>;

interface Node<T> {
  literals: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  catchAll?: { name: string; value: T; pattern: string };
  value?: T;
  pattern?: string;
}

export class PatternError extends Error {
  static readonly "~brand": string = "@flowspec/stepflow:PatternError";
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isErrorInstance(this, value);
  }
  override name = "PatternError";
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`route pattern ${JSON.stringify(pattern)}: ${reason}`);
  }
}

const newNode = <T>(): Node<T> => ({ literals: new Map() });

/** A trie of route patterns. */
export class PatternTrie<T> {
  private readonly root: Node<T> = newNode();

  /** Adds a pattern; throws `PatternError` for bad syntax or a pattern that conflicts with another. */
  insert(pattern: string, value: T): void {
    if (!pattern.startsWith("/")) throw new PatternError(pattern, 'must start with "/"');
    const segments = pattern.slice(1).split("/");
    let node = this.root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const param = /^\{([^{}*/]+)\}$/.exec(segment);
      const catchAll = /^\{\*([^{}*/]+)\}$/.exec(segment);
      if (catchAll) {
        if (i !== segments.length - 1) throw new PatternError(pattern, `the catch-all {*${catchAll[1]}} must be the last segment`);
        if (node.catchAll) throw new PatternError(pattern, `conflicts with ${JSON.stringify(node.catchAll.pattern)}`);
        node.catchAll = { name: catchAll[1]!, value, pattern };
        return;
      }
      if (param) {
        if (node.param && node.param.name !== param[1]) {
          throw new PatternError(pattern, `parameter {${param[1]}} conflicts with {${node.param.name}} at the same position`);
        }
        node.param ??= { name: param[1]!, node: newNode() };
        node = node.param.node;
        continue;
      }
      if (/[{}]/.test(segment)) throw new PatternError(pattern, `segment ${JSON.stringify(segment)} mixes text and parameters`);
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = newNode()));
      node = next;
    }
    if (node.value !== undefined) throw new PatternError(pattern, `conflicts with ${JSON.stringify(node.pattern)}`);
    node.value = value;
    node.pattern = pattern;
  }

  /** Finds the best match for a path, with its parameters. */
  match(path: string): { value: T; params: Params; pattern: string } | undefined {
    if (!path.startsWith("/")) return undefined;
    return matchNode(this.root, path.slice(1).split("/"), 0, {});
  }
}

function matchNode<T>(node: Node<T>, segments: string[], i: number, params: Params): { value: T; params: Params; pattern: string } | undefined {
  if (i === segments.length) return node.value !== undefined ? { value: node.value, params, pattern: node.pattern! } : undefined;
  const segment = segments[i]!;
  const literal = node.literals.get(segment);
  if (literal) {
    const found = matchNode(literal, segments, i + 1, params);
    if (found) return found;
  }
  if (node.param && segment !== "") {
    const found = matchNode(node.param.node, segments, i + 1, { ...params, [node.param.name]: segment });
    if (found) return found;
  }
  if (node.catchAll) {
    const rest = segments.slice(i).join("/");
    if (rest !== "") return { value: node.catchAll.value, params: { ...params, [node.catchAll.name]: rest }, pattern: node.catchAll.pattern };
  }
  return undefined;
}

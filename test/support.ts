import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * The upstream corpus of a spec, `../shared/corpus/<spec>` beside the repository (CI has it there
 * too). Tests read it in place; it is never copied into the repository.
 */
export function corpusDir(spec: "stepflow" | "agents-json" | "apflow" | "agent-service"): string {
  return fileURLToPath(new URL(`../../shared/corpus/${spec}/`, import.meta.url));
}

/** A deterministic random integer in [0, n) (mulberry32), so failures reproduce. */
export function seededRandom(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/**
 * A flow with every kind of edge the graph shows: `$from` with paths, skipIf, onSkip and onError
 * defaults, a `$literal` that only looks like a reference, and references to steps that do not
 * exist. The graph builders' tests (@flowspec/documents) and `flowspec graph`'s (cli) read it.
 */
export const digestFlow = {
  schema: "https://stepflow.org/schemas/v1/flow.json",
  name: "digest",
  steps: [
    { id: "fetch", component: "/http/get", input: { url: { $from: { workflow: "input" }, path: "url" } } },
    {
      id: "summarise",
      component: "/llm/summary",
      skipIf: { $from: { workflow: "input" }, path: "quiet" },
      input: { text: { $from: { step: "fetch" }, path: "body" }, config: { $literal: { $from: { step: "nope" } } }, parts: [{ $from: { step: "fetch" }, path: "title", onSkip: { action: "useDefault", defaultValue: "-" } }] },
      onError: { action: "useDefault", defaultValue: { fallback: { $from: { step: "fetch" }, path: "title" } } },
    },
    { id: "store", component: "/builtin/put_blob", input: { data: { $from: { step: "summarise" } }, extra: { $from: { step: "ghost" } } } },
  ],
  output: { summary: { $from: { step: "summarise" } } },
};

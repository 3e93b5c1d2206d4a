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

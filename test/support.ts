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

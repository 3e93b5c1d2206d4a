import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import the workspace packages from source, as the root tsconfig's `paths` do: no build
// is needed to run them. (The tests of the built packages import dist/ through plain Node.)
const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const packages: Record<string, string> = {
  runtime: "packages/runtime",
  "schema-diff": "packages/schema-diff",
  codegen: "codegen",
  stepflow: "packages/stepflow",
  "stepflow-python": "packages/stepflow-python",
  "agents-json": "packages/agents-json",
  apflow: "packages/apflow",
  "agent-service": "packages/agent-service",
  documents: "packages/documents",
  cli: "packages/cli",
};

export default defineConfig({
  resolve: {
    alias: Object.entries(packages).flatMap(([name, dir]) => [
      { find: new RegExp(`^@flowspec/${name}$`), replacement: at(`${dir}/src/index.ts`) },
      { find: new RegExp(`^@flowspec/${name}/(.+)$`), replacement: at(`${dir}/src/$1`) },
    ]),
  },
  test: {
    include: ["test/**/*.test.ts", "codegen/test/**/*.test.ts", "packages/*/test/**/*.test.ts", "examples/test/**/*.test.ts", "playground/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

// Typechecks every ```ts block of the READMEs against the packages' sources, so the documented
// API cannot drift from the real one. Each block is a module of its own.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const dir = ".readme-snippets";
const readmes = process.argv.length > 2 ? process.argv.slice(2) : ["README.md", "codegen/README.md", ...["runtime", "schema-diff", "stepflow", "stepflow-python", "agents-json", "apflow", "agent-service", "documents"].map((name) => `packages/${name}/README.md`)];
const blocks = readmes.flatMap((file) => [...readFileSync(file, "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]));
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
blocks.forEach((code, i) => writeFileSync(`${dir}/block-${String(i + 1).padStart(2, "0")}.ts`, `${code}\nexport {};\n`));
writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { noEmit: true }, include: ["*.ts"] }));
try {
  execFileSync("node_modules/.bin/tsc", ["-p", `${dir}/tsconfig.json`], { stdio: "inherit" });
  console.log(`${readmes.join(", ")}: ${blocks.length} TypeScript blocks typecheck`);
  rmSync(dir, { recursive: true, force: true });
} catch {
  console.error(`${readmes.join(", ")}: a TypeScript block does not typecheck (blocks are in ${dir}/, numbered in order)`);
  process.exitCode = 1;
}

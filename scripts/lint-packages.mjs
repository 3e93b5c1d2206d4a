// Lints every publishable package as npm would ship it: publint (package.json and files) and
// attw --pack (types resolve for ESM and CJS consumers under node16/nodenext resolution).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const root = JSON.parse(readFileSync("package.json", "utf8"));
const bin = (name) => `node_modules/.bin/${name}`;
let failed = 0;
for (const dir of root.workspaces) {
  const pkg = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  if (pkg.private) continue;
  for (const [tool, args] of [
    ["publint", [dir, "--strict"]],
    ["attw", ["--pack", dir, "--profile", "node16", "--format", "table-flipped"]],
  ]) {
    try {
      execFileSync(bin(tool), args, { stdio: "pipe", encoding: "utf8" });
      console.log(`ok   ${tool} ${pkg.name}`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${tool} ${pkg.name}\n${error.stdout}${error.stderr}`);
    }
  }
}
process.exitCode = failed > 0 ? 1 : 0;

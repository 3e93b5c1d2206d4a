/**
 * Runs the test cases of stdio.yaml and http.yaml: each reaches the component server of
 * components.ts through the engine, over stdio (a child process) and over Streamable HTTP (a
 * test server started on a free port), as `flowspec stepflow test .` does here.
 */
import { testPaths } from "@flowspec/stepflow/node";

const summary = await testPaths(["stdio.yaml", "http.yaml"], { cwd: import.meta.dirname });
for (const file of summary.files) {
  if (file.error) console.log(`${file.file}: ${file.error}`);
  for (const report of file.cases) console.log(`${report.status.padEnd(7)} ${file.file} › ${report.name}${report.detail ? `\n  ${report.detail}` : ""}`);
}
console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exitCode = summary.failed > 0 || summary.passed !== 2 ? 1 : 0;

import { runCli } from "../src/index.js";

/** Runs the CLI in-process and returns what it printed and its exit code. */
export async function cli(argv: string[], cwd = process.cwd()) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: process.env,
  });
  return { code, stdout, stderr };
}

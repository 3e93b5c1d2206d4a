import { runCli } from "../src/index.js";
import type { CliIo } from "../src/io.js";

/** Runs the CLI in-process and returns what it printed and its exit code; `stdin` is what it may read there. */
export async function cli(argv: string[], cwd = process.cwd(), stdin?: CliIo["stdin"]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin,
    cwd,
    env: process.env,
  });
  return { code, stdout, stderr };
}

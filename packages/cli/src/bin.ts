#!/usr/bin/env node
import { VERSION } from "./version.js";

const argv = process.argv.slice(2);

// A reader that goes away (`flowspec runs watch … | head -1`) is not an error: stop quietly
// instead of dying on an unhandled EPIPE with a stack trace (or watching on for nobody).
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit();
  throw error;
});

if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  // Answered before commander and the commands load: what commander would print, at the cost of
  // little more than starting Node (scripts and CI steps call it to check what is installed).
  process.stdout.write(`${VERSION}\n`);
} else {
  import("./program.js")
    .then(({ runCli }) =>
      runCli(argv, {
        stdout: process.stdout,
        stderr: process.stderr,
        // A getter: only `stepflow run` reads stdin, and only then is Node's stdin stream made.
        get stdin() {
          return process.stdin;
        },
        cwd: process.cwd(),
        env: process.env,
      }),
    )
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: Error) => {
        process.stderr.write(`flowspec: internal error: ${error.stack ?? error.message}\n`);
        process.exitCode = 2;
      },
    );
}

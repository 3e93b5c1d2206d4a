#!/usr/bin/env node
import { runCli } from "./program.js";

// A reader that goes away (`flowspec runs watch … | head -1`) is not an error: stop quietly
// instead of dying on an unhandled EPIPE with a stack trace (or watching on for nobody).
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit();
  throw error;
});

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`flowspec: internal error: ${error.stack ?? error.message}\n`);
    process.exitCode = 2;
  },
);

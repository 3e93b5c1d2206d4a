#!/usr/bin/env node
import { runCli } from "./program.js";

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`flowspec: internal error: ${error.stack ?? error.message}\n`);
    process.exitCode = 2;
  },
);

#!/usr/bin/env node
import { runCodegen } from "./cli.js";

runCodegen(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

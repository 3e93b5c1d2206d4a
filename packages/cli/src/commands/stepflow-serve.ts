import type { Command } from "commander";
import { consoleToStderr } from "@flowspec/runtime/node";
import { createComponentServer, serveHttp, serveStdio, type Components, type ComponentServer } from "@flowspec/stepflow/server";
import { CliError, type CliIo } from "../io.js";
import { importDefault } from "../load-module.js";

/** `flowspec stepflow serve`: serves a module's components over stdio or Streamable HTTP. */
export function registerStepflowServe(stepflow: Command, io: CliIo): void {
  stepflow
    .command("serve")
    .description("Serve the components a module exports as its default export (an object of name → component)")
    .argument("<module>", "a JavaScript or TypeScript module")
    .option("--http", "serve Streamable HTTP (POST /, GET /health) instead of stdio")
    .option("--port <n>", "the HTTP port (0 picks a free one)", "8080")
    .option("--host <host>", "the HTTP host", "127.0.0.1")
    .option("--max-line-bytes <n>", "the largest message accepted", String(16 * 1024 * 1024))
    .addHelpText(
      "after",
      `
Over stdio, stdout carries protocol lines only (console output goes to stderr); the process serves
until stdin closes. Over HTTP it prints the URL and serves until interrupted.

Exit codes: 0 served until the end, 2 the module cannot be loaded or has no components.

Examples:
  flowspec stepflow serve components.ts
  flowspec stepflow serve components.js --http --port 8080`,
    )
    .action(async (module: string, options: { http?: boolean; port: string; host: string; maxLineBytes: string }) => {
      // Over stdio, stdout is the protocol stream from the start: a module that logs while it loads
      // must not write there (serveStdio redirects the console only once it is called).
      const restore = options.http ? () => {} : consoleToStderr();
      let components: unknown;
      let server: ComponentServer;
      try {
        components = await importDefault(module, io.cwd);
        if (typeof components !== "object" || components === null || Object.keys(components).length === 0) {
          throw new CliError(`${module}: its default export must be an object of components (name → { handler, … })`);
        }
        for (const [name, component] of Object.entries(components)) {
          if (typeof (component as { handler?: unknown })?.handler !== "function") throw new CliError(`${module}: component ${name} has no handler function`);
        }
        try {
          server = createComponentServer(components as Components);
        } catch (error) {
          // e.g. `echo` and `/echo`, which are the same component
          throw new CliError(`${module}: ${(error as Error).message}`);
        }
      } catch (error) {
        restore();
        throw error;
      }
      const port = Number(options.port);
      const maxLineBytes = Number(options.maxLineBytes);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a port number, not "${options.port}"`);
      if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) throw new CliError(`--max-line-bytes must be a positive integer`);
      if (options.http) {
        // A taken port or an unknown host is the user's to fix: say which, without a stack trace.
        const listening = await serveHttp(server, { port, host: options.host, maxLineBytes }).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`cannot listen on ${options.host}:${port}: ${error.code ?? error.message}`);
        });
        io.stdout.write(`serving ${Object.keys(components).length} components on ${listening.url}\n`);
        await new Promise<void>((resolve) => listening.server.once("close", () => resolve()));
        return;
      }
      const peer = serveStdio(server, { maxLineBytes });
      await new Promise<void>((resolve) => process.stdin.once("end", () => resolve()));
      peer.close();
    });
}


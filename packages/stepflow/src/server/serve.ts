import type { Peer } from "@flowspec/runtime/jsonrpc";
import { createStreamableHttpListener, listenHttp, serveProcessStdio, type RunningHttpServer } from "@flowspec/runtime/node";
import { createComponentServer, type ComponentServer, type Components } from "./server.js";

const serverOf = (components: Components | ComponentServer): ComponentServer =>
  "handlers" in components && "streams" in components ? (components as ComponentServer) : createComponentServer(components as Components);

export interface ServeOptions {
  /** Things that went wrong without a caller to tell (a bad message); default: a line on stderr. */
  onError?(error: Error): void;
  maxLineBytes?: number;
}

/**
 * Serves components on this process's stdin/stdout. stdout carries protocol lines only: console
 * output goes to stderr from here on.
 */
export function serveStdio(components: Components | ComponentServer, options: ServeOptions = {}): Peer {
  const server = serverOf(components);
  return serveProcessStdio({ ...server, onError: options.onError ?? ((error) => process.stderr.write(`stepflow server: ${error.message}\n`)), maxLineBytes: options.maxLineBytes });
}

/** Serves components over Streamable HTTP (POST /, GET /health) on 127.0.0.1 unless `host` says otherwise. */
export function serveHttp(components: Components | ComponentServer, options: ServeOptions & { port?: number; host?: string } = {}): Promise<RunningHttpServer> {
  const server = serverOf(components);
  const { listener } = createStreamableHttpListener({
    ...server,
    onError: options.onError ?? ((error) => process.stderr.write(`stepflow server: ${error.message}\n`)),
    maxBodyBytes: options.maxLineBytes,
    health: () => ({ service: "flowspec-stepflow-component-server", components: server.infos().length }),
  });
  return listenHttp(listener, { port: options.port, host: options.host });
}

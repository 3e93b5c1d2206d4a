/**
 * A small static file server for the built playground (`npm run playground`): GET and HEAD of
 * the files in one folder, nothing outside it, no directory listings. Any other static server
 * serves the folder as well.
 */
import { createReadStream, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join, resolve, sep } from "node:path";
import { buildPlayground } from "./build.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export function serveStatic(dir: string, port = 0, host = "127.0.0.1"): Promise<{ url: string; server: Server }> {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") return response.writeHead(405, { allow: "GET, HEAD" }).end();
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://local").pathname);
    } catch {
      return response.writeHead(400).end();
    }
    const file = resolve(root, `.${path.endsWith("/") ? `${path}index.html` : path}`);
    const size = (() => {
      try {
        const stat = statSync(file);
        return stat.isFile() ? stat.size : undefined;
      } catch {
        return undefined;
      }
    })();
    if ((file !== root && !file.startsWith(root + sep)) || size === undefined) return response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": size, "cache-control": "no-cache" });
    if (request.method === "HEAD") return response.end();
    createReadStream(file).pipe(response);
  });
  return new Promise((listening, failed) => {
    server.once("error", failed);
    server.listen(port, host, () => listening({ url: `http://${host}:${(server.address() as AddressInfo).port}/`, server }));
  });
}

if (process.argv[1] && basename(process.argv[1]) === "serve.ts") {
  const portArgument = process.argv.indexOf("--port");
  const port = portArgument > 0 ? Number(process.argv[portArgument + 1]) : 8080;
  const { outdir } = await buildPlayground();
  const { url } = await serveStatic(outdir, port);
  console.log(`flowspec playground: ${url} (serving ${join(outdir)}; Ctrl-C stops)`);
}

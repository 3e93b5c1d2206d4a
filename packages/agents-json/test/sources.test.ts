import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSourceResolver, load, loadOpenApiSource, loadSources, OverrideError, SourceFormatError, SourceResolutionError, type OpenApiSource } from "@flowspec/agents-json";
import { corpusDir } from "../../../test/support.js";

const dir = corpusDir("agents-json");
const specs = [
  ["resend", 29, "3.0.3"],
  ["linkup", 1, "3.1.0"],
  ["theodds", 9, "3.0.1"],
  ["giphy", 18, "3.0.0"],
  ["hubspotcontacts", 12, "3.0.1"],
] as const;

let server: Server;
let origin = "";
const hosts: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(`${req.headers.host}${req.url}`);
    if (req.url === "/redirect") {
      res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/spec.json` });
      res.end();
    } else if (req.url === "/big.yaml") {
      res.writeHead(200, { "content-type": "application/yaml" });
      res.end(`openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n# ${"x".repeat(5000)}`);
    } else if (req.url === "/slow.yaml") {
      setTimeout(() => res.end("openapi: 3.0.0"), 2000);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/x": { get: { operationId: "get_x" } } } }));
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }));

describe("OpenAPI sources (§4.2)", () => {
  it.each(specs)("the corpus document of %s resolves through a map and indexes %i operations", async (name, count, version) => {
    const loaded = load(readFileSync(join(dir, `agents_json__${name}__agents.json`), "utf8"));
    const sources = await loadSources(loaded, { resolver: { map: { [name]: join(dir, `agents_json__${name}__openapi.yaml`) } } });
    const source = sources.get(name) as OpenApiSource;
    expect(source).not.toBeInstanceOf(Error);
    expect(source.version).toBe(version);
    expect(source.operations.size).toBe(count);
    for (const flow of loaded.document.flows) for (const action of flow.actions) expect(source.operations.has(action.operationId)).toBe(true);
  });

  it("dereferences $refs and applies overrides to a private copy (§5)", async () => {
    const giphy = join(dir, "agents_json__giphy__openapi.yaml");
    const overrides = [
      { sourceId: "giphy", operationId: "giphy_get_gifs_search", fieldPath: "parameters.0.required", value: false },
      { sourceId: "giphy", operationId: "giphy_get_gifs_search", fieldPath: "servers", value: [{ url: "https://api.giphy.com/v1" }] },
      { sourceId: "giphy", operationId: "giphy_get_gifs_search", fieldPath: "parameters.2.schema.maximum", value: 10 },
    ];
    const source = await loadOpenApiSource({ id: "giphy", path: giphy }, { resolver: createSourceResolver(), overrides });
    const search = source.operations.get("giphy_get_gifs_search")!;
    expect(search.parameters.find((p) => p.name === "api_key")!.required).toBe(false);
    expect(search.parameters.find((p) => p.name === "limit")!.schema!.maximum).toBe(10);
    expect(search.operation.servers).toEqual([{ url: "https://api.giphy.com/v1" }]);
    expect(source.operations.get("giphy_get_gifs_trending")!.parameters.find((p) => p.name === "api_key")!.required).toBe(true);
  });

  it("changes only the field an override names, even where $refs made objects shared within the operation (§5)", async () => {
    const text = [
      "openapi: 3.0.3",
      "info: {title: t, version: '1'}",
      "paths:",
      "  /a:",
      "    get:",
      "      operationId: get_a",
      "      parameters:",
      "        - {name: x, in: query, schema: {$ref: '#/components/schemas/N'}}",
      "        - {name: y, in: query, schema: {$ref: '#/components/schemas/N'}}",
      "        - {name: z, in: query, schema: {$ref: '#/components/schemas/N'}}",
      "components:",
      "  schemas:",
      "    N: {type: integer, minimum: 0}",
    ].join("\n");
    const overrides = [
      { sourceId: "s", operationId: "get_a", fieldPath: "parameters.0.schema.maximum", value: 5.5 },
      { sourceId: "s", operationId: "get_a", fieldPath: "parameters.2.schema", value: { minimum: 1.5 } },
    ];
    const source = await loadOpenApiSource({ id: "s", path: "/x/s.yaml" }, { resolver: createSourceResolver({ readFile: async () => text }), overrides });
    const schemas = Object.fromEntries(source.operations.get("get_a")!.parameters.map((p) => [p.name, p.schema]));
    expect(schemas).toEqual({ x: { type: "integer", minimum: 0, maximum: 5.5 }, y: { type: "integer", minimum: 0 }, z: { type: "integer", minimum: 1.5 } });
    expect((source.document.components as { schemas: Record<string, unknown> }).schemas.N).toEqual({ type: "integer", minimum: 0 });
  });

  it("ignores the siblings of a $ref in OpenAPI 3.0 and keeps them in 3.1 schemas", async () => {
    const files: Record<string, string> = {
      "/v/common.yaml": "Id: {name: id, in: query, required: true, schema: {$ref: '#/Str', maxLength: 9}}\nStr: {type: string}\n",
    };
    const spec = (version: string) =>
      [
        `openapi: ${version}`,
        "info: {title: t, version: '1'}",
        "paths:",
        "  /a:",
        "    get:",
        "      operationId: get_a",
        "      parameters:",
        "        - {$ref: '#/components/parameters/Q', required: false}",
        "        - {$ref: './common.yaml#/Id', required: false}",
        "        - {name: n, in: query, schema: {$ref: '#/components/schemas/S', minimum: 1}}",
        "components:",
        "  parameters:",
        "    Q: {name: q, in: query, required: true, schema: {type: string}}",
        "  schemas:",
        "    S: {type: integer}",
      ].join("\n");
    const params = async (version: string) => {
      files["/v/openapi.yaml"] = spec(version);
      const resolver = createSourceResolver({ readFile: async (path) => files[path] ?? Promise.reject(Object.assign(new Error("no"), { code: "ENOENT" })) });
      const source = await loadOpenApiSource({ id: "s", path: "/v/openapi.yaml" }, { resolver });
      return source.operations.get("get_a")!.parameters;
    };
    expect(await params("3.0.3")).toEqual([
      { name: "q", in: "query", required: true, schema: { type: "string" } },
      { name: "id", in: "query", required: true, schema: { type: "string" } },
      { name: "n", in: "query", schema: { type: "integer" } },
    ]);
    expect((await params("3.1.0")).find((p) => p.name === "n")!.schema).toEqual({ type: "integer", minimum: 1 });
  });

  it.each([
    [{ sourceId: "giphy", operationId: "nope", fieldPath: "x", value: 1 }, /operation "nope" does not exist/],
    [{ sourceId: "giphy", operationId: "giphy_get_gifs_search", fieldPath: "summary.x", value: 1 }, /cannot write through the string/],
    [{ sourceId: "giphy", operationId: "giphy_get_gifs_search", fieldPath: "parameters.40.required", value: false }, /past the end/],
  ])("raises OverrideError for %j", async (override, message) => {
    const giphy = join(dir, "agents_json__giphy__openapi.yaml");
    const loading = loadOpenApiSource({ id: "giphy", path: giphy }, { resolver: createSourceResolver(), overrides: [override] });
    await expect(loading).rejects.toThrow(OverrideError);
    await expect(loading).rejects.toThrow(message);
  });

  it("resolves relative paths against the document and external $refs through the resolver", async () => {
    const files: Record<string, string> = {
      "/virtual/api/openapi.yaml": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: get_a\n      parameters:\n        - $ref: './common.yaml#/id'\n",
      "/virtual/api/common.yaml": "id: {name: id, in: query, required: true, schema: {type: string}}\n",
    };
    const resolver = createSourceResolver({ readFile: async (path) => files[path] ?? Promise.reject(Object.assign(new Error("no"), { code: "ENOENT" })) });
    const source = await loadOpenApiSource({ id: "api", path: "openapi.yaml" }, { resolver, documentLocation: "/virtual/api/agents.json" });
    expect(source.operations.get("get_a")!.parameters).toEqual([{ name: "id", in: "query", required: true, schema: { type: "string" } }]);
  });

  it.each([
    ["swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}", /Swagger 2.0/],
    ['{"discoveryVersion": "v1", "resources": {}}', /discovery document/],
    ["openapi: 2.5.0\npaths: {}", /3.0.x or 3.1.x/],
    ["openapi: 3.0.0\npaths:\n  /a: {get: {operationId: x}}\n  /b: {get: {operationId: x}}", /used twice/],
    ["openapi: [", /source "s"/],
  ])("rejects a source that is not usable OpenAPI 3.0/3.1: %s", async (text, message) => {
    const resolver = createSourceResolver({ readFile: async () => text });
    await expect(loadOpenApiSource({ id: "s", path: "/x/spec.yaml" }, { resolver })).rejects.toThrow(SourceFormatError);
    await expect(loadOpenApiSource({ id: "s", path: "/x/spec.yaml" }, { resolver })).rejects.toThrow(message);
  });

  it("fetches URLs only when allowed, within the allow-list, the size limit and the timeout", async () => {
    const source = { id: "s", path: `${origin}/spec.json` };
    await expect(loadOpenApiSource(source, { resolver: createSourceResolver() })).rejects.toThrow(/URL fetching is off/);
    await expect(loadOpenApiSource(source, { resolver: createSourceResolver({ allowUrls: true, allowedOrigins: ["https://example.com"] }) })).rejects.toThrow(/not in allowedOrigins/);
    const ok = await loadOpenApiSource(source, { resolver: createSourceResolver({ allowUrls: true, allowedOrigins: [origin] }) });
    expect([...ok.operations.keys()]).toEqual(["get_x"]);
    await expect(loadOpenApiSource({ id: "s", path: `${origin}/big.yaml` }, { resolver: createSourceResolver({ allowUrls: true, maxBytes: 1000 }) })).rejects.toThrow(/1000-byte limit/);
    await expect(loadOpenApiSource({ id: "s", path: `${origin}/slow.yaml` }, { resolver: createSourceResolver({ allowUrls: true, timeoutMs: 100 }) })).rejects.toThrow(SourceResolutionError);
  });

  it("does not follow a redirect out of allowedOrigins", async () => {
    const resolver = createSourceResolver({ allowUrls: true, allowedOrigins: [origin] });
    hosts.length = 0;
    await expect(loadOpenApiSource({ id: "s", path: `${origin}/redirect` }, { resolver })).rejects.toThrow(/redirect.*localhost.*not in allowedOrigins/);
    expect(hosts.filter((h) => h.startsWith("localhost"))).toEqual([]);
    // Without an allow-list redirects are followed as before.
    const followed = await loadOpenApiSource({ id: "s", path: `${origin}/redirect` }, { resolver: createSourceResolver({ allowUrls: true }) });
    expect([...followed.operations.keys()]).toEqual(["get_x"]);
  });

  it("keeps an unloadable source as an error entry instead of failing", async () => {
    const loaded = load(readFileSync(join(dir, "agents_json__resend__agents.json"), "utf8"));
    const sources = await loadSources(loaded);
    expect(sources.get("resend")).toBeInstanceOf(SourceResolutionError);
  });
});

describe("remote documents cannot reach local files (§4.2)", () => {
  const localFiles: Record<string, string> = { "/home/u/secret.yaml": "token: SUPERSECRET-123\n", "/home/u/bad.yaml": "a: b\nc: [SUPERSECRET-456 {\n" };
  const reads: string[] = [];
  const readFile = async (path: string) => {
    reads.push(path);
    return localFiles[path] ?? Promise.reject(Object.assign(new Error("no"), { code: "ENOENT" }));
  };
  let remote: Server;
  let remoteOrigin = "";
  const spec = (ref: string) => JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/x": { get: { operationId: "get_x", description: { $ref: ref } } } } });
  beforeAll(async () => {
    remote = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/abs.json") res.end(spec("file:///home/u/secret.yaml"));
      else if (req.url === "/chain.json") res.end(spec("./abs.json#/paths/~1x/get/description"));
      else res.end(spec("#/info/title"));
    });
    await new Promise<void>((done) => remote.listen(0, "127.0.0.1", done));
    remoteOrigin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => { remote.closeAllConnections(); remote.close(() => done()); }));

  it("refuses a file: $ref in a fetched OpenAPI document, even within allowedOrigins", async () => {
    reads.length = 0;
    const resolver = createSourceResolver({ allowUrls: true, allowedOrigins: [remoteOrigin], readFile });
    await expect(loadOpenApiSource({ id: "s", path: `${remoteOrigin}/abs.json` }, { resolver })).rejects.toThrow(SourceResolutionError);
    await expect(loadOpenApiSource({ id: "s", path: `${remoteOrigin}/chain.json` }, { resolver })).rejects.toThrow(SourceResolutionError);
    expect(reads).toEqual([]);
    // A local document refers to a remote one that refers to a local file.
    localFiles["/home/u/local.json"] = spec(`${remoteOrigin}/abs.json#/paths/~1x/get/description`);
    await expect(loadOpenApiSource({ id: "s", path: "/home/u/local.json" }, { resolver })).rejects.toThrow(SourceResolutionError);
    expect(reads).toEqual(["/home/u/local.json"]);
    const ok = await loadOpenApiSource({ id: "s", path: `${remoteOrigin}/fine.json` }, { resolver });
    expect(ok.operations.get("get_x")!.operation.description).toBe("t");
  });

  it("resolves a source path of a document at a URL against that URL, never to a local file", async () => {
    reads.length = 0;
    const resolver = createSourceResolver({ allowUrls: true, allowedOrigins: [remoteOrigin], readFile });
    const documentLocation = `${remoteOrigin}/dir/agents.json`;
    const sameOrigin = await loadOpenApiSource({ id: "s", path: "/home/u/secret.yaml" }, { resolver, documentLocation });
    expect(sameOrigin.location).toBe(`${remoteOrigin}/home/u/secret.yaml`);
    for (const path of ["file:///home/u/secret.yaml", "C:\\home\\u\\secret.yaml"]) {
      await expect(loadOpenApiSource({ id: "s", path }, { resolver, documentLocation })).rejects.toThrow(SourceResolutionError);
    }
    expect(reads).toEqual([]);
    // The caller's own map still sends such a source to a local file.
    const mapped = createSourceResolver({ map: { s: "/home/u/local.json" }, readFile, allowUrls: true, allowedOrigins: [remoteOrigin] });
    localFiles["/home/u/local.json"] = spec("#/info/title");
    const loaded = await loadOpenApiSource({ id: "s", path: "file:///somewhere.json" }, { resolver: mapped, documentLocation });
    expect(loaded.operations.has("get_x")).toBe(true);
  });

  it("reads a source mapped to a local file in that file's format and names the file in its syntax errors", async () => {
    // The corpus's devopness source is a .json URL; a user maps it to the YAML copy they have.
    const path = "https://example.com/spec.json";
    localFiles["/home/u/spec.yaml"] = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      operationId: get_x\n";
    const resolver = createSourceResolver({ map: { s: "/home/u/spec.yaml" }, readFile });
    const loaded = await loadOpenApiSource({ id: "s", path }, { resolver });
    expect(loaded.operations.has("get_x")).toBe(true);
    localFiles["/home/u/spec.yaml"] = "openapi: 3.0.3\npaths: {x: [1,\n";
    await expect(loadOpenApiSource({ id: "s", path }, { resolver })).rejects.toThrow(/^source "s": \/home\/u\/spec\.yaml:\d+:\d+: /);
  });

  it("keeps the text of a $ref'd file out of a parse error", async () => {
    localFiles["/home/u/api.yaml"] = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      operationId: a\n      description: {$ref: 'bad.yaml'}\n";
    const loading = loadOpenApiSource({ id: "s", path: "/home/u/api.yaml" }, { resolver: createSourceResolver({ readFile }) });
    await expect(loading).rejects.toThrow(SourceFormatError);
    await expect(loading).rejects.toThrow(/bad\.yaml:2:/);
    await expect(loading).rejects.not.toThrow(/SUPERSECRET/);
  });

  it("refuses a YAML alias bomb in a $ref'd file", async () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(", ")}]`);
    localFiles["/home/u/bomb.yaml"] = `${lines.join("\n")}\n`;
    localFiles["/home/u/api2.yaml"] = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      operationId: a\n      description: {$ref: 'bomb.yaml'}\n";
    await expect(loadOpenApiSource({ id: "s", path: "/home/u/api2.yaml" }, { resolver: createSourceResolver({ readFile }) })).rejects.toThrow(SourceFormatError);
  });
});

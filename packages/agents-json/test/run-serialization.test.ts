import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load, loadSources, runFlow, type RunOptions, type SourceResolver } from "@flowspec/agents-json";
import { startServer } from "./support/server.js";

// What a real server receives for the OpenAPI serialization rules that are easy to get subtly wrong.
const openapi = {
  openapi: "3.1.0",
  info: { title: "Serialization", version: "1" },
  servers: [{ url: "https://ser.invalid" }],
  paths: {
    "/delimited": {
      get: {
        operationId: "delimited",
        parameters: [
          { name: "sp", in: "query", style: "spaceDelimited", schema: { type: "object" } },
          { name: "pi", in: "query", style: "pipeDelimited", schema: { type: "object" } },
          { name: "spx", in: "query", style: "spaceDelimited", explode: true, schema: { type: "array" } },
          { name: "pix", in: "query", style: "pipeDelimited", explode: true, schema: { type: "array" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/upload": {
      post: {
        operationId: "upload",
        requestBody: { content: { "multipart/form-data": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok" } },
      },
    },
    "/form": {
      post: {
        operationId: "form",
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object" },
              encoding: { sp: { style: "spaceDelimited" }, pi: { style: "pipeDelimited" } },
            },
          },
        },
        responses: { "200": { description: "ok" } },
      },
    },
    "/cookies": {
      get: {
        operationId: "cookies",
        parameters: [
          { name: "prefs", in: "cookie", schema: { type: "object" } },
          { name: "color", in: "cookie", explode: false, schema: { type: "object" } },
          { name: "ids", in: "cookie", explode: false, schema: { type: "array" } },
        ],
        responses: { "200": { description: "ok" } },
      },
    },
    "/latin1": { get: { operationId: "latin1", responses: { "200": { description: "ok", content: { "text/plain": {} } } } } },
  },
};
const resolver: SourceResolver = { read: async () => ({ text: JSON.stringify(openapi), location: "https://ser.invalid/openapi.json" }) };
const flow = (operationId: string, parameters: { name: string; type: string }[]) => ({
  id: `${operationId}_flow`,
  title: operationId,
  description: operationId,
  actions: [{ id: "act", sourceId: "ser", operationId }],
  links: [
    ...parameters.map(({ name }) => ({ origin: { actionId: `${operationId}_flow`, fieldPath: `parameters.${name}` }, target: { actionId: "act", fieldPath: `parameters.${name}` } })),
    { origin: { actionId: `${operationId}_flow`, fieldPath: "requestBody" }, target: { actionId: "act", fieldPath: "requestBody" } },
    { origin: { actionId: "act", fieldPath: "responses.success" }, target: { actionId: `${operationId}_flow`, fieldPath: "responses.success" } },
  ],
  fields: { parameters, requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: { success: {} } },
});
const doc = load({
  agentsJson: "0.1.0",
  info: { title: "Serialization", version: "1.0.0", description: "d" },
  sources: [{ id: "ser", path: "openapi.json" }],
  flows: [
    flow("delimited", [
      { name: "sp", type: "object" },
      { name: "pi", type: "object" },
      { name: "spx", type: "array" },
      { name: "pix", type: "array" },
    ]),
    flow("upload", []),
    flow("form", []),
    flow("latin1", []),
    flow("cookies", [
      { name: "prefs", type: "object" },
      { name: "color", type: "object" },
      { name: "ids", type: "array" },
    ]),
  ],
});
const sources = await loadSources(doc, { resolver });

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer([
    () => ({ body: {} }),
  ]);
});
afterAll(() => server.close());
const run = (operationId: string, input: unknown, options: RunOptions = {}) =>
  runFlow(doc, `${operationId}_flow`, input, { sources, servers: { ser: server.url }, ...options });
const rawQuery = (index: number) => server.received[index]!;

describe("query styles", () => {
  it("joins spaceDelimited and pipeDelimited objects by their delimiter, and repeats exploded arrays", async () => {
    const at = server.received.length;
    await run("delimited", { parameters: { sp: { R: "100", G: "200" }, pi: { R: "100", G: "200" }, spx: ["a", "b"], pix: ["c", "d"] } });
    expect([...rawQuery(at).query]).toEqual([
      ["sp", "R 100 G 200"],
      ["pi", "R|100|G|200"],
      ["spx", "a"],
      ["spx", "b"],
      ["pix", "c"],
      ["pix", "d"],
    ]);
  });
});

describe("multipart bodies", () => {
  it("sends array fields as repeated parts and keeps a File's name", async () => {
    const at = server.received.length;
    const files = [new File(["one"], "a.txt", { type: "text/plain" }), new File(["two"], "b.txt", { type: "text/plain" })];
    await run("upload", { requestBody: { files, tags: ["x", "y"], single: new File(["doc"], "report.pdf") } });
    const received = server.received[at]!;
    const form = await new Response(received.body, { headers: { "content-type": String(received.headers["content-type"]) } }).formData();
    expect(form.getAll("tags")).toEqual(["x", "y"]);
    expect(form.getAll("files").map((f) => (f as File).name)).toEqual(["a.txt", "b.txt"]);
    expect(await Promise.all(form.getAll("files").map((f) => (f as File).text()))).toEqual(["one", "two"]);
    expect((form.get("single") as File).name).toBe("report.pdf");
  });
});

describe("form bodies", () => {
  it("joins spaceDelimited and pipeDelimited array fields of an encoding entry", async () => {
    const at = server.received.length;
    await run("form", { requestBody: { sp: ["a", "b"], pi: ["c", "d"], plain: ["e", "f"] } });
    expect([...new URLSearchParams(server.received[at]!.body)]).toEqual([
      ["sp", "a b"],
      ["pi", "c|d"],
      ["plain", "e"],
      ["plain", "f"],
    ]);
  });
});

describe("cookie parameters", () => {
  it("serialises object cookies with style form (exploded by default), not as JSON text", async () => {
    const at = server.received.length;
    await run("cookies", { parameters: { prefs: { theme: "dark", lang: "nb" }, color: { R: "100", G: "200" }, ids: ["3", "4"] } });
    expect(server.received[at]!.headers.cookie).toBe("theme=dark; lang=nb; color=R%2C100%2CG%2C200; ids=3%2C4");
  });
});

describe("responses", () => {
  it("decodes a text body by its charset", async () => {
    // node:http writes strings as UTF-8, so the Latin-1 bytes come from an injected fetch.
    const fetch = (async () =>
      new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), { headers: { "content-type": "text/plain; charset=ISO-8859-1" } })) as unknown as typeof globalThis.fetch;
    const result = await run("latin1", {}, { fetch });
    expect(JSON.stringify(result)).toContain("café");
  });
});

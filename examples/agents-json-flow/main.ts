/**
 * agents.json end to end: build a document with the typed builder, lint it against its OpenAPI
 * source, export it as an LLM tool, and run the flow against a local HTTP server it starts itself.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { agentsJson, exportTools, lintAgentsJson, load, runFlow } from "@flowspec/agents-json";

// 1. Build: two actions chained on the first one's response; flow data is addressed by the flow id.
const document = agentsJson({ title: "Notes", version: "1.0.0", description: "Notes flows" })
  .source("notes", "notes.openapi.yaml")
  .flow("create_and_read_note", { title: "Create and read a note", description: "Stores a note, then reads it back" }, (flow) =>
    flow
      .parameter("format", { type: "string", description: "plain or upper" })
      .requestBody({ schema: { type: "object", required: ["text"], properties: { text: { type: "string" }, tags: { type: "array", items: { type: "string" } } } }, required: true })
      .action("create", "notes", "create_note")
      .action("read", "notes", "get_note")
      .link({ inputBody: true }, { action: "create", body: true })
      .link({ response: "create", path: "id" }, { action: "read", parameter: "id" })
      .link({ input: "format" }, { action: "read", parameter: "format" })
      .link({ response: "read" }, { output: "note" }),
  )
  .build();
console.log(`built ${document.flows.length} flow(s): ${document.flows.map((f) => f.id).join(", ")}`);

// 2. Lint, with the OpenAPI source read from this folder (no network).
const resolver = { map: { notes: join(import.meta.dirname, "notes.openapi.yaml") } };
const report = await lintAgentsJson(document, { mode: "strict", resolver });
console.log(`lint (strict, with sources): ${report.counts.error} error(s), ${report.counts.warning} warning(s)`);

// 3. The flow as an Anthropic tool.
const [tool] = exportTools(document, { format: "anthropic" });
console.log("tool:", JSON.stringify(tool));

// 4. A local server implementing the two operations.
const notes = new Map<string, string>();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "Bearer demo-token") return reply(401, { message: "unauthorised" });
    if (req.method === "POST" && url.pathname === "/v1/notes") {
      const id = `n${notes.size + 1}`;
      notes.set(id, (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { text: string }).text);
      return reply(201, { id });
    }
    const match = /^\/v1\/notes\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && match && notes.has(match[1]!)) {
      const text = notes.get(match[1]!)!;
      return reply(200, { id: match[1], text: url.searchParams.get("format") === "upper" ? text.toUpperCase() : text });
    }
    reply(404, { message: "not found" });
  });
});
await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

// 5. Run the flow; the trace shows each call with the token redacted.
try {
  const { result, trace } = await runFlow(load(document), "create_and_read_note", { parameters: { format: "upper" }, requestBody: { text: "hello agents", tags: ["demo"] } }, {
    resolver,
    servers: { notes: base },
    credentials: { notes: { bearer: { token: "demo-token" } } },
  });
  for (const step of trace) console.log(`  ${step.actionId}: ${step.request.method} ${step.request.url} -> ${step.response?.status} (authorization: ${step.request.headers.authorization})`);
  console.log("result:", JSON.stringify(result));
} finally {
  await new Promise<void>((done) => server.close(() => done()));
}

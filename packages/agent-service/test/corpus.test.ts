import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSourceDocument } from "@flowspec/runtime";
import { agentRun, STREAM_CHANNELS, upgradeCreateRunBody, validateCreateRunCommand, ValidationError, type CreateRunCommand } from "@flowspec/agent-service";
import { startTestServer, type TestServer } from "@flowspec/agent-service/testing";
import { corpusDir } from "../../../test/support.js";
import { clientFor } from "./support/clients.js";

const corpus = corpusDir("agent-service");
const example = JSON.parse(readFileSync(join(corpus, "spec/v1/examples/commands/create-run.json"), "utf8")) as Record<string, any>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("corpus: the create-run example (older generation)", () => {
  it("is refused before sending as it stands, and created once upgraded", async () => {
    const { client } = clientFor(server);
    const before = server.requests.create;
    const error = await client.create(example as CreateRunCommand).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors.map((e) => e.path)).toContain("/input");
    expect(server.requests.create).toBe(before);

    const upgraded = upgradeCreateRunBody(example) as CreateRunCommand;
    expect(validateCreateRunCommand(upgraded).ok).toBe(true);
    const run = await client.create(upgraded);
    expect(run).toMatchObject({ resourceId: "demo-agent", contextId: "ctx-customer-001", webhook: example.webhook, input: { mode: "agent", ephemeralTools: example.input.tools } });
    // It carries an idempotencyKey: creating it again returns the same run.
    expect((await client.create(upgraded)).runId).toBe(run.runId);
  });

  it("is what the builder produces for the same run", () => {
    const message = example.input.messages[0];
    const built = agentRun(example.resourceId)
      .context(example.contextId)
      .message(message.role, message.content, { id: message.id })
      .ephemeralTool(example.input.tools[0])
      .maxRetries(example.maxRetries)
      .webhook(example.webhook)
      .idempotencyKey(example.idempotencyKey)
      .build({ strict: true });
    expect(built).toEqual(upgradeCreateRunBody(example));
  });
});

describe("corpus: run-stream.asyncapi.yaml", () => {
  it("names the channels the client and server use as SSE event names", () => {
    const path = join(corpus, "spec/v1/api/run-stream.asyncapi.yaml");
    const document = parseSourceDocument(readFileSync(path, "utf8"), { file: path }).value as { channels: Record<string, unknown> };
    expect(Object.keys(document.channels)).toEqual(expect.arrayContaining(Object.values(STREAM_CHANNELS)));
  });
});

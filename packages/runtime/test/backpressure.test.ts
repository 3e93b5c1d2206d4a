import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectStreams } from "@flowspec/runtime/node";

// A peer whose other side does not read what it writes must stop reading new messages, or its
// answers pile up in memory without bound (226 → 737 MB after 578 MiB of requests).

const REQUESTS = 20_000;
const PARAMS = "x".repeat(1000);
const request = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params: PARAMS }) + "\n";

describe("newline-JSON backpressure", () => {
  it("a server whose client does not read its stdout stops taking requests, and answers them all once it does", { timeout: 30_000 }, async () => {
    const server = fileURLToPath(new URL("./fixtures/echo-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", server], { stdio: ["pipe", "pipe", "pipe"] });
    try {
      let taken = 0;
      createInterface({ input: child.stderr }).on("line", (line) => (taken = Number(line)));
      child.stdout.pause(); // the client reads nothing yet
      // 20 MB of requests, written as fast as the pipe takes them (this side's buffer holds the rest).
      for (let id = 1; id <= REQUESTS; id++) child.stdin.write(request(id));
      // Wait until the server has stopped taking requests (no change for half a second), or has taken them all.
      for (let last = -1, still = 0; still < 5 && taken < REQUESTS; still = taken === last && taken > 0 ? still + 1 : 0) {
        last = taken;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Without backpressure the server takes every request and holds 20 MB of answers.
      expect(taken).toBeLessThan(REQUESTS / 10);
      // Once the client reads, every request is answered, once.
      const ids = new Set<number>();
      const lines = createInterface({ input: child.stdout });
      await new Promise<void>((resolve) =>
        lines.on("line", (line) => {
          ids.add((JSON.parse(line) as { id: number }).id);
          if (ids.size === REQUESTS) resolve();
        }),
      );
      expect(ids.size).toBe(REQUESTS);
    } finally {
      child.kill();
    }
  });

  it("a client whose output is not read stops reading the calls that make more of it, and goes on at 'drain'", async () => {
    const input = new PassThrough();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // An output that takes a little, then nothing until released.
    let written = 0;
    const output = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        void (written < 64 * 1024 ? Promise.resolve() : held).then(() => done());
      },
    });
    let handled = 0;
    connectStreams(input, output, { role: "client", handlers: { echo: (params) => (handled++, params) } });
    for (let id = 1; id <= 2000; id++) input.write(request(id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled).toBeLessThan(500);
    expect(input.isPaused()).toBe(true);
    release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(handled).toBe(2000);
  });
});

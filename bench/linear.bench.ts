/**
 * Cost per unit of input at 1×, 10× and 100× the size, for each family of hostile input (issue 19):
 * errors per document, keys per YAML mapping, bytes per stream event, levels of nesting, bytes per
 * file. Target: the 100× cost per unit ≤ 2× the 1× cost per unit (linear time); each row says
 * whether it holds. Sizes run in alternating rounds (every order in turn), each figure the median
 * of its rounds; no collection is forced, so no size pays for another's garbage on its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunsClient } from "@flowspec/agent-service";
import { validateTaskTreeNode } from "@flowspec/apflow";
import { runCli } from "@flowspec/cli";
import { parseSourceDocument } from "@flowspec/runtime";
import { validateRequest } from "@flowspec/stepflow";
import { balancedOrders, median } from "./support/rounds.js";

const SCALES = [1, 10, 100] as const;
const ROUNDS = 6; // every order of the three sizes once
const SCHEMA = "https://stepflow.org/schemas/v1/flow.json";
const uuid = (i: number) => `0b6f3a4e-8c1d-4f2a-9e3b-${String(i).padStart(12, "0")}`;

interface Family {
  name: string;
  unit: string;
  /** Units at 1×. */
  base: number;
  /** Builds the input for `n` units (not timed) and returns the work to time. */
  make(n: number): () => unknown;
}

const temp = mkdtempSync(join(tmpdir(), "flowspec-bench-linear-"));
const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: temp, env: {} };

/** A flow of `n` steps, valid but for the last step's id (one located error), as JSON or YAML. */
function flowFile(n: number, format: "json" | "yaml"): string {
  const steps = Array.from({ length: n }, (_, i) => ({ id: i === n - 1 ? 7 : `step${i}`, component: "/builtin/eval", input: { text: "some words of input", n: i } }));
  const file = join(temp, `flow-${n}.${format}`);
  if (format === "json") writeFileSync(file, JSON.stringify({ schema: SCHEMA, name: "bench", steps }, null, 2));
  else writeFileSync(file, `schema: ${SCHEMA}\nname: bench\nsteps:\n${steps.map((s) => `  - id: ${s.id}\n    component: ${s.component}\n    input:\n      text: ${s.input.text}\n      n: ${s.input.n}\n`).join("")}`);
  return file;
}

const families: Family[] = [
  {
    name: 'errors per document: validateRequest("flows/evaluate"), one bad step each',
    unit: "step",
    base: 100,
    make: (n) => {
      const params = { flow: { schema: SCHEMA, steps: Array.from({ length: n }, (_, i) => ({ id: i, component: 5 })) }, input: null };
      return () => validateRequest("flows/evaluate", params);
    },
  },
  {
    name: "errors per document: validateTaskTreeNode, one bad child each",
    unit: "child",
    base: 100,
    make: (n) => {
      const tree = { task: { id: uuid(0), name: "root", status: "pending" }, children: Array.from({ length: n }, () => ({ task: { id: 5 }, children: [] })) };
      return () => validateTaskTreeNode(tree);
    },
  },
  {
    name: "keys per YAML mapping: parseSourceDocument",
    unit: "key",
    base: 400,
    make: (n) => {
      let text = "";
      for (let i = 0; i < n; i++) text += `key${i}: ${i}\n`;
      return () => parseSourceDocument(text, { format: "yaml" });
    },
  },
  {
    name: "event size: RunsClient.stream, one SSE event in 64 KiB chunks",
    unit: "KiB",
    base: 100,
    make: (n) => {
      const encoder = new TextEncoder();
      const event = encoder.encode(
        `id: 1\nevent: run.stream.event\ndata: {"runId":"r","threadId":"t","sequence":1,"event":{"type":"message.delta","messageId":"m","delta":"${"x".repeat(n * 1024)}","eventId":"e1","createdAt":"2026-11-22T22:00:00.000Z"}}\n\n` +
          `event: run.stream.end\ndata: {"type":"end","runId":"r","status":"completed","lastSequence":1}\n\n`,
      );
      const body = () => {
        let at = 0;
        return new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at >= event.length) return controller.close();
            controller.enqueue(event.subarray(at, (at += 64 * 1024)));
          },
        });
      };
      const client = new RunsClient({ baseUrl: "http://127.0.0.1:9", orgId: "o", token: "t", fetch: async () => new Response(body(), { headers: { "content-type": "text/event-stream" } }) });
      return async () => {
        let count = 0;
        for await (const _ of client.stream("r")) count++;
        if (count !== 1) throw new Error(`expected one event, got ${count}`);
      };
    },
  },
  ...(["json", "yaml"] as const).map(
    (format): Family => ({
      name: `nesting depth: parseSourceDocument (${format}), 200 nests, the deepest value of each located`,
      unit: "level",
      base: 2,
      make: (n) => {
        const nest = (i: number) => (format === "json" ? `${"[".repeat(n)}${i}${"]".repeat(n)}` : `- ${"[".repeat(n)}${i}${"]".repeat(n)}`);
        const count = 200;
        const items = Array.from({ length: count }, (_, i) => nest(i));
        const text = format === "json" ? `[${items.join(",\n")}]` : `${items.join("\n")}\n`;
        const deepest = Array.from({ length: count }, (_, i) => `/${i}${"/0".repeat(n)}`);
        return () => {
          const document = parseSourceDocument(text, { format });
          for (const pointer of deepest) document.locate(pointer);
        };
      },
    }),
  ),
  ...(["json", "yaml"] as const).map(
    (format): Family => ({
      name: `file size: flowspec validate (${format}), one error located`,
      unit: "KB",
      base: 50,
      make: (n) => {
        // About 100 bytes a step in either format.
        const file = flowFile(Math.round((n * 1000) / 100), format);
        return async () => {
          if ((await runCli(["validate", file], quiet)) !== 1) throw new Error("expected the flow to be invalid");
        };
      },
    }),
  ),
];

console.log(`cost per unit at 1×, 10× and 100× the size (median of ${ROUNDS} alternating rounds); target: 100× per unit ≤ 2× the 1× per unit`);
console.log("| family | unit | sizes | per unit at 1× | 10× | 100× | 100× / 1× | verdict |");
console.log("|---|---|---|---|---|---|---|---|");
try {
  for (const family of families) {
    const sizes = SCALES.map((scale) => family.base * scale);
    const works = sizes.map((n) => family.make(n));
    for (const work of works) await work(); // warm-up
    const times: number[][] = works.map(() => []);
    const orders = balancedOrders(works.map((_, i) => i));
    for (let round = 0; round < ROUNDS; round++) {
      for (const i of orders[round % orders.length]!) {
        const started = performance.now();
        await works[i]!();
        times[i]!.push(performance.now() - started);
      }
    }
    const perUnit = times.map((t, i) => median(t) / sizes[i]!);
    const ratio = perUnit[2]! / perUnit[0]!;
    const shown = perUnit.map((ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(2)} µs`));
    console.log(`| ${family.name} | ${family.unit} | ${sizes.join(" / ")} | ${shown.join(" | ")} | ${ratio.toFixed(2)}× | ${ratio <= 2 ? "ok" : "**not linear**"} |`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

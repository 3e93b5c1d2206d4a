/**
 * apflow: build a task tree with handles, check it, plan it, and run it locally with the
 * built-in rest_executor against a loopback HTTP server this example starts and stops itself.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  checkTaskList,
  createExecutorRegistry,
  createTaskTree,
  planTaskTree,
  registerBuiltinExecutors,
  runTaskTree,
} from "@flowspec/apflow";

// A tiny "weather API" on 127.0.0.1, port chosen by the OS.
const server = createServer((req, res) => {
  const city = new URL(req.url ?? "/", "http://local").searchParams.get("city") ?? "?";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ city, celsius: city.length * 3 }));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/weather`;

try {
  // 1. Build: tasks refer to each other by handle; ids are UUID v4s made by the builder.
  const tree = createTaskTree({ userId: "demo-user" });
  const report = tree.root("report", { method: "summarise", priority: 3 });
  const paris = report.child("weather-paris", { method: "rest_executor", inputs: { url: api, params: { city: "Paris" } } });
  const oslo = report.child("weather-oslo", { method: "rest_executor", inputs: { url: api, params: { city: "Oslo" } }, priority: 0 });
  const all = report.child("collect", { method: "aggregate_results_executor" }).after(paris, oslo);
  report.after(all);
  const built = tree.build(); // throws unless it passes the strict validator and every semantic rule
  console.log(`built a tree of ${tree.toTaskList().length} tasks; root ${built.task.name} (${built.task.id})`);

  // 2. Check: the builder's output is valid; a hand-edited list with a cycle is not.
  const list = tree.toTaskList();
  console.log("check of the built list:", checkTaskList(list).ok ? "ok" : "invalid");
  const broken = list.map((task) => (task.name === "weather-paris" ? { ...task, dependencies: [{ id: all.id, required: true }] } : task));
  const nameOf = new Map(list.map((task) => [task.id, task.name]));
  for (const issue of checkTaskList(broken).errors) {
    const cycle = issue.cycle?.map((id) => nameOf.get(id)).join(" → ");
    console.log(`  broken copy: [${issue.code}] at ${issue.path}${cycle ? `: ${cycle}` : `: ${issue.message}`}`);
  }

  // 3. Plan: the waves in which tasks become ready (priority 0 first within a wave).
  planTaskTree(built).steps.forEach((step, k) => console.log(`  step ${k + 1}: ${step.map((t) => t.name).join(", ")}`));

  // 4. Run locally: built-in executors plus one of our own, two tasks at a time.
  const registry = registerBuiltinExecutors(createExecutorRegistry());
  registry.register("summarise", (_inputs, ctx) => {
    const collected = Object.values(ctx.dependencyResults)[0] as { results: Record<string, { json: { city: string; celsius: number } }> };
    const lines = Object.values(collected.results).map((r) => `${r.json.city} ${r.json.celsius}°C`);
    ctx.reportProgress(1);
    return { summary: lines.join(", ") };
  });
  const run = runTaskTree(built, {
    registry,
    concurrency: 2,
    onStatusChange: (e) => console.log(`  ${e.task.name}: ${e.from} → ${e.to}`),
  });
  const result = await run.done;
  console.log(`run ${result.status}; summary: ${JSON.stringify(result.tree.task.result)}`);

  // 5. Cancellation: a pending task is cancelled at once and its required dependents follow.
  const second = runTaskTree(built, { registry });
  second.cancel(paris.id, "not needed today");
  const cancelled = await second.done;
  for (const task of Object.values(cancelled.tasks)) {
    const why = task.error?.replace(/[0-9a-f-]{36}/g, (id) => nameOf.get(id) ?? id);
    console.log(`  second run: ${task.name} ${task.status}${why ? ` (${why})` : ""}`);
  }
} finally {
  await new Promise((resolve) => server.close(resolve));
}

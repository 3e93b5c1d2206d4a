import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for a v1 apflow server (0.18.x) as the protocol notes §6 describe it:
 * bare-array results, -32603 with HTTP 500 for handler exceptions, null for a missing task,
 * HTTP 400 -32601 for unknown methods, HTTP 401 -32001 without a valid token, SSE for streaming.
 * `behaviour` switches in the failures a client must survive.
 */
export interface FakeV1Server {
  url: string;
  /** Every request seen: path, headers and the JSON-RPC body. */
  requests: { path: string; authorization?: string; llmKey?: string; body: Record<string, unknown> }[];
  tasks: Map<string, Record<string, unknown>>;
  behaviour: "normal" | "non-json" | "drop-stream" | "bad-task" | "slow" | "bad-event";
  close(): Promise<void>;
}

export async function startFakeV1Server(options: { token?: string } = {}): Promise<FakeV1Server> {
  const tasks = new Map<string, Record<string, unknown>>();
  const requests: FakeV1Server["requests"] = [];
  let counter = 0;
  const iso = () => "2026-02-16T10:00:00.123456"; // Python isoformat(): no offset

  const fail = (message: string): never => {
    throw Object.assign(new Error(message), { rpc: true });
  };

  const state: FakeV1Server = { url: "", requests, tasks, behaviour: "normal", close: async () => {} };

  const create = (params: unknown) => {
    const list = Array.isArray(params) ? params : [params];
    if (list.length === 0) fail("Tasks array cannot be empty");
    const ids = new Set<string>();
    for (const t of list as Record<string, unknown>[]) {
      if (typeof t.name !== "string") fail("Task must have a 'name' field");
      if (typeof t.id === "string" && ids.has(t.id)) fail(`Duplicate task id '${t.id}'`);
      if (typeof t.id === "string") ids.add(t.id);
    }
    const roots = (list as Record<string, unknown>[]).filter((t) => t.parent_id == null);
    if (roots.length !== 1) fail(`Multiple root tasks found: ${roots.map((t) => t.name).join(", ")}`);
    for (const t of list as Record<string, unknown>[]) {
      for (const dep of (t.dependencies as { id: string }[] | undefined) ?? []) {
        if (dep.id === t.id) fail(`Circular dependency detected: ${t.id}`);
      }
    }
    return (list as Record<string, unknown>[]).map((t) => {
      const id = (t.id as string | undefined) ?? `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;
      const stored = { id, parent_id: null, user_id: null, priority: 1, inputs: {}, schemas: null, params: null, dependencies: [], ...t, status: "pending", result: null, error: null, progress: 0, created_at: iso(), updated_at: iso(), started_at: null, completed_at: null, origin_type: "create", has_children: false };
      tasks.set(id, stored);
      return stored;
    });
  };

  const treeOf = (id: string): Record<string, unknown> => {
    const task = tasks.get(id) ?? fail(`Task ${id} not found`);
    const children = [...tasks.values()].filter((t) => t.parent_id === id).map((t) => treeOf(t.id as string));
    return { task, children };
  };
  const rootOf = (id: string): string => {
    let task = tasks.get(id) ?? fail(`Task ${id} not found`);
    while (task.parent_id) task = tasks.get(task.parent_id as string)!;
    return task.id as string;
  };
  const finishAll = (rootId: string) => {
    const walk = (id: string) => {
      const task = tasks.get(id)!;
      Object.assign(task, { status: "completed", result: { ok: id }, progress: 1, started_at: iso(), completed_at: iso(), updated_at: iso() });
      for (const t of tasks.values()) if (t.parent_id === id) walk(t.id as string);
    };
    walk(rootId);
  };

  const handlers: Record<string, (p: Record<string, unknown>) => unknown> = {
    "tasks.create": (p) => {
      const created = create(p);
      return created.length === 1 ? created[0] : created;
    },
    "tasks.get": (p) => tasks.get((p.task_id ?? p.id) as string) ?? null,
    "tasks.detail": (p) => tasks.get(p.task_id as string) ?? null,
    "tasks.tree": (p) => treeOf(rootOf((p.task_id ?? p.root_id) as string)),
    "tasks.children": (p) => [...tasks.values()].filter((t) => t.parent_id === (p.parent_id ?? p.task_id)),
    "tasks.list": (p) => [...tasks.values()].filter((t) => (p.root_only === false ? true : t.parent_id == null)).slice(0, (p.limit as number) ?? 100),
    "tasks.count": () => ({ total: tasks.size, pending: [...tasks.values()].filter((t) => t.status === "pending").length }),
    "tasks.update": (p) => {
      const task = tasks.get(p.task_id as string) ?? fail(`Task ${p.task_id} not found`);
      if ("parent_id" in p) fail("Cannot update parent_id");
      const { task_id: _id, ...fields } = p;
      Object.assign(task, fields, { updated_at: iso() });
      return task;
    },
    "tasks.delete": (p) => {
      const task = tasks.get(p.task_id as string) ?? fail(`Task ${p.task_id} not found`);
      if (task.status !== "pending") fail(`Cannot delete task: task is ${task.status}`);
      tasks.delete(p.task_id as string);
      return { success: true, task_id: p.task_id, deleted_count: 1, children_deleted: 0 };
    },
    "tasks.execute": (p) => {
      const root = rootOf(p.task_id as string);
      finishAll(root);
      return { success: true, protocol: "jsonrpc", root_task_id: root, task_id: p.task_id, status: "completed", message: "done" };
    },
    "tasks.cancel": (p) => ((p.task_ids as string[] | undefined) ?? []).map((id) => ({ task_id: id, status: tasks.get(id)?.status === "pending" ? "cancelled" : "failed", message: "ok", force: Boolean(p.force) })),
    "tasks.running.list": () => [],
    "tasks.running.status": (p) => (p.task_ids as string[]).map((id) => ({ task_id: id, context_id: id, status: tasks.get(id)?.status ?? "not_found", progress: 0, error: null, is_running: false })),
    "tasks.running.count": (p) => ({ count: 0, ...(p.user_id ? { user_id: p.user_id } : {}) }),
    "tasks.clone": (p) => ({ tasks: [tasks.get(p.task_id as string)], saved: false }),
    "tasks.generate": (p) => ({ tasks: [], count: 0, message: `nothing for ${p.requirement}` }),
  };
  const system: Record<string, (p: Record<string, unknown>) => unknown> = {
    "system.health": () => ({ status: "healthy", message: "ok", version: "0.18.1", timestamp: iso(), running_tasks_count: 0 }),
    "system.executors": () => ({ executors: [{ id: "rest_executor", name: "REST", extension: "http", description: "HTTP" }], count: 1, restricted: false }),
    "config.llm_key.set": (p) => ({ success: true, user_id: p.user_id ?? null, provider: p.provider ?? "openai" }),
    "config.llm_key.get": (p) => ({ has_key: false, user_id: p.user_id ?? null, provider: p.provider ?? null, providers: {} }),
    "config.llm_key.delete": (p) => ({ success: true, user_id: p.user_id ?? null, deleted: false, provider: p.provider ?? null }),
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const stream = (res: ServerResponse, id: unknown, taskId: string, temporaryRoot: boolean) => {
    const root = rootOf(taskId);
    // In {tasks:[…]} mode a v1 server announces a temporary random root id, not a stored one.
    const announced = temporaryRoot ? "99999999-9999-4999-8999-999999999999" : root;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    event({ jsonrpc: "2.0", id, result: { success: true, protocol: "jsonrpc", root_task_id: announced, task_id: announced, status: "started", streaming: true, message: "started" } });
    res.write(": keepalive\n\n");
    event({ type: "task_start", task_id: root, status: "in_progress", timestamp: iso() });
    event({ type: "progress", task_id: root, progress: 0.5, timestamp: iso() });
    if (state.behaviour === "drop-stream") {
      setTimeout(() => res.socket?.destroy(), 50); // after the events above have gone out
      return;
    }
    if (state.behaviour === "bad-event") {
      res.write("data: {not json\n\n");
      res.end();
      return;
    }
    event({ type: "task_completed", task_id: root, status: "completed", final: true, result: { ok: root } });
    finishAll(root);
    // A child task left pending behind a failed dependency: the client must call it blocked.
    const children = [...tasks.values()].filter((t) => t.parent_id === root);
    if (children[0]) Object.assign(children[0], { status: "failed", error: "boom", result: { error: "boom" } });
    if (children[1]) Object.assign(children[1], { status: "pending", result: null, started_at: null, completed_at: null, progress: 0 });
    event({ type: "stream_end", task_id: root, final: true });
    setTimeout(() => res.end(), 20);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      }
      const authorization = req.headers.authorization;
      requests.push({ path: req.url ?? "", authorization, llmKey: req.headers["x-llm-api-key"] as string | undefined, body });
      const id = body.id ?? null;
      if (options.token && authorization !== `Bearer ${options.token}`) {
        return send(res, 401, { jsonrpc: "2.0", id, error: { code: -32001, message: "Unauthorized", data: "Invalid or missing token" } });
      }
      if (state.behaviour === "non-json") {
        res.writeHead(502, { "content-type": "text/html" });
        return res.end("<html>Bad Gateway</html>");
      }
      if (state.behaviour === "slow") {
        setTimeout(() => send(res, 200, { jsonrpc: "2.0", id, result: null }), 1000);
        return;
      }
      const method = body.method as string;
      const table = req.url === "/system" ? system : req.url === "/tasks" ? handlers : undefined;
      const handler = table?.[method];
      if (!handler) return send(res, 400, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found", data: `Unknown task method: ${method}` } });
      const params = body.params as Record<string, unknown>;
      try {
        if (method === "tasks.execute" && params.use_streaming) {
          const fromTasks = Array.isArray(params.tasks);
          const taskId = fromTasks ? (create(params.tasks)[0]!.id as string) : (params.task_id as string);
          return stream(res, id, taskId, fromTasks);
        }
        let result = handler(params ?? {});
        if (state.behaviour === "bad-task" && result && typeof result === "object" && "status" in result) result = { ...result, status: "exploded" };
        send(res, 200, { jsonrpc: "2.0", id, result });
      } catch (error) {
        send(res, 500, { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error", data: (error as Error).message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}

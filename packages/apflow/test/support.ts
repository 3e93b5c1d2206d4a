import type { Task } from "@flowspec/apflow";

/** A pending task with a short id (wire mode), for scheduler scenarios. */
export function task(id: string, extra: Partial<Task> & Record<string, unknown> = {}): Task {
  return { id, name: id, status: "pending", ...extra };
}

/** Dependencies: plain ids are required, `?id` is optional. */
export function deps(...ids: string[]): { id: string; required: boolean }[] {
  return ids.map((id) => (id.startsWith("?") ? { id: id.slice(1), required: false } : { id, required: true }));
}

/** A deterministic clock: one second per call from 2026-01-01T00:00:00Z. */
export function clock(): () => string {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000).toISOString();
}

export interface Deferred<T = unknown> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = unknown>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending microtask and timer-free promise chain run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

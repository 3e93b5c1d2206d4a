import { spawnSync } from "node:child_process";

/**
 * Wall-clock ms of one whole `node` process with `args`, timed from outside. It runs under GNU
 * time, which also gives its CPU time (user + system, in ms), pushed to `cpu`: on a machine shared
 * with other work, wall time also counts the waits for a CPU. Throws if the process fails.
 */
export function processTime(args: string[], cwd: string, cpu: number[]): number {
  const start = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "@@cpu %U %S", process.execPath, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  const times = /@@cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr);
  if (run.status !== 0 || !times) throw new Error(`node ${args.join(" ").slice(0, 200)} failed:\n${run.stderr}`);
  cpu.push((Number(times[1]) + Number(times[2])) * 1000);
  return ms;
}

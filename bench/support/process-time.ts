import { spawnSync } from "node:child_process";
import { join } from "node:path";

/**
 * Wall-clock ms of one whole `node` process with `args`, timed from outside. It runs under GNU
 * time, which also gives its CPU time (user + system, in ms), pushed to `cpu`: on a machine shared
 * with other work, wall time also counts the waits for a CPU. Throws if the process fails.
 */
export function processTime(args: string[], cwd: string, cpu: number[]): number {
  const { ms, report } = runReporting("/usr/bin/time", ["-f", "@@cpu %U %S", process.execPath, ...args], args, cwd, /@@cpu ([\d.]+) ([\d.]+)\s*$/);
  cpu.push((Number(report[1]) + Number(report[2])) * 1000);
  return ms;
}

const CPU_AT_EXIT = join(import.meta.dirname, "cpu-at-exit.cjs");

/**
 * CPU ms (user + system) of one whole `node` process with `args`, to the microsecond: the process
 * reports its own `process.cpuUsage()` at exit (a preloaded hook). For differences between runs of
 * the same program (a scale curve), where GNU time's 10 ms steps are as large as the difference;
 * the hook's own cost is the same in every run. Throws if the process fails.
 */
export function processCpuMs(args: string[], cwd: string): number {
  const { report } = runReporting(process.execPath, ["--require", CPU_AT_EXIT, ...args], args, cwd, /@@cpu-us (\d+)\s*$/);
  return Number(report[1]) / 1000;
}

/** Runs `command` (a `node` process with `args`), timing only the run; throws unless it succeeds and its stderr ends with `reportPattern`. */
function runReporting(command: string, commandArgs: string[], args: string[], cwd: string, reportPattern: RegExp): { ms: number; report: RegExpExecArray } {
  const start = performance.now();
  const run = spawnSync(command, commandArgs, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  const report = reportPattern.exec(run.stderr);
  if (run.status !== 0 || !report) throw new Error(`node ${args.join(" ").slice(0, 200)} failed:\n${run.stderr}`);
  return { ms, report };
}

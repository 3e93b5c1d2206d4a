// Preloaded with `node --require` by processCpuMs (process-time.ts): at exit, the process writes its
// own CPU time (getrusage, microseconds) to stderr, finer than GNU time's 10 ms.
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").writeSync(2, `\n@@cpu-us ${user + system}\n`);
});

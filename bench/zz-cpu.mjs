const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu();
const { runFlow } = await import("@flowspec/stepflow");
const c1 = cpu();
const steps = Number(process.argv[3] ?? 10000), shape = process.argv[2] ?? "chain";
const flow = shape === "chain" ? { schema: "https://stepflow.org/schemas/v1/flow.json", steps: Array.from({ length: steps }, (_, i) => ({ id: `s${i}`, component: "/ts/inc", input: i === 0 ? { $from: { workflow: "input" } } : { $from: { step: `s${i - 1}` } } })), output: { $from: { step: `s${steps - 1}` } } }
 : { schema: "https://stepflow.org/schemas/v1/flow.json", steps: Array.from({ length: steps }, (_, i) => ({ id: `s${i}`, component: "/ts/inc", input: { $from: { workflow: "input" } } })), output: Array.from({ length: steps }, (_, i) => ({ $from: { step: `s${i}` } })) };
const inc = async (n) => n + 1;
const c2 = cpu();
const r = await runFlow(flow, 0, { components: { "/ts/inc": inc } });
const c3 = cpu();
const r2 = await runFlow(flow, 0, { components: { "/ts/inc": inc } });
const c4 = cpu();
console.log(JSON.stringify({ boot: +c0.toFixed(0), import: +(c1 - c0).toFixed(0), run1: +(c3 - c2).toFixed(0), run2: +(c4 - c3).toFixed(0), total: +c4.toFixed(0) }));

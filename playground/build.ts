/**
 * Builds the playground into a folder of static files (default `playground/dist/`): `index.html`
 * with its Content-Security-Policy, one script and one stylesheet, bundled by esbuild from the
 * packages' sources. Any static server can serve the folder; nothing is fetched once it is loaded.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..");

/** The policy the page runs under: only its own files, no inline script or style, no eval. */
export const CONTENT_SECURITY_POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The examples menu: one document per spec from examples/documents, and the older create-run body the upgrade converts. */
export const EXAMPLES = [
  { name: "StepFlow flow", file: "summarise.flow.yaml" },
  { name: "agents.json", file: "notes.agents.json" },
  { name: "apflow task tree", file: "weather-report.tree.json" },
  { name: "Agent Service run", file: "support-question.run.json" },
  { name: "Agent Service run, older body", file: "older-generation.run.json" },
] as const;

/** `@flowspec/x[/sub]` → the package's source, as vitest and the root tsconfig resolve it: no build needed. */
const workspaceSources: Plugin = {
  name: "flowspec-sources",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@flowspec\/[^/]+(\/.+)?$/ }, ({ path }) => {
      const [, name, sub] = /^@flowspec\/([^/]+)(?:\/(.+))?$/.exec(path)!;
      const src = join(repo, "packages", name!, "src");
      const candidates = sub === undefined ? [join(src, "index.ts")] : [join(src, `${sub}.ts`), join(src, sub, "index.ts")];
      const found = candidates.find((file) => existsSync(file));
      return found ? { path: found } : { errors: [{ text: `no source for ${path} (looked for ${candidates.join(", ")})` }] };
    });
  },
};

/** `virtual:examples`: the example documents as text. */
const examples: Plugin = {
  name: "flowspec-examples",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^virtual:examples$/ }, () => ({ path: "examples", namespace: "virtual" }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "virtual" }, () => {
      const list = EXAMPLES.map(({ name, file }) => ({ name, file, text: readFileSync(join(repo, "examples/documents", file), "utf8") }));
      return { contents: `export default ${JSON.stringify(list)};`, loader: "js", watchFiles: EXAMPLES.map(({ file }) => join(repo, "examples/documents", file)) };
    });
  },
};

export interface PlaygroundBuild {
  outdir: string;
  /** The JavaScript the page loads before it can do anything, gzip-compressed, in bytes. */
  initialJsGzipBytes: number;
}

export async function buildPlayground(outdir = join(here, "dist")): Promise<PlaygroundBuild> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(here, "src/main.ts"), style: join(here, "src/style.css") },
    outdir,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    plugins: [workspaceSources, examples],
    logLevel: "warning",
    legalComments: "none",
  });
  const html = readFileSync(join(here, "src/index.html"), "utf8").replace("%CSP%", CONTENT_SECURITY_POLICY);
  writeFileSync(join(outdir, "index.html"), html);
  writeFileSync(join(outdir, "favicon.svg"), readFileSync(join(here, "src/favicon.svg")));
  const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const initialJsGzipBytes = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(outdir, src))).length, 0);
  return { outdir, initialJsGzipBytes };
}

if (process.argv[1] && basename(process.argv[1]) === "build.ts") {
  const { outdir, initialJsGzipBytes } = await buildPlayground();
  const size = (file: string) => `${(statSync(join(outdir, file)).size / 1024).toFixed(0)} KiB`;
  console.log(`playground built in ${outdir}: app.js ${size("app.js")} (${(initialJsGzipBytes / 1024).toFixed(0)} KiB gzip), style.css ${size("style.css")}`);
}

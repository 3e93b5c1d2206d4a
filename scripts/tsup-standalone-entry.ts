/**
 * tsup configs for a package with one entry that must load as a single file: the `/validate`
 * entries (and runtime's `/validation`, which they import) are what a cold process loads first,
 * and each extra ES module costs about 1–2 ms of loader work, more than the code in a small chunk
 * (measured in bench/validators). With `splitting`, code shared by several entries goes to chunks,
 * so the entry would load three to seven modules.
 *
 * So the entry is built alone (no splitting: one file that bundles its own imports), and the other
 * entries, still built together with splitting (one identity per class among them), import it as
 * `./<name>.js` (or `.cjs`) instead of bundling a copy. Nothing the entry owns may reach the other
 * entries by another path, or it would load twice: the build fails if one of them imports a file
 * under `owned` directly.
 */
import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { transformSync } from "esbuild";
import type { Options } from "tsup";

type Esbuild = Parameters<NonNullable<Options["esbuildPlugins"]>[number]["setup"]>[0]["esbuild"];

export interface StandaloneEntry {
  /** The entry's name, as in `entry` (its output is `<name>.js` and `<name>.cjs`). */
  name: string;
  /** Files or folders only the entry may import (e.g. `src/generated`), relative to the package. */
  owned?: string[];
  /** Packages bundled into the entry rather than imported (small, stateless helpers). */
  inline?: (string | RegExp)[];
  /**
   * Files of the entry (paths relative to the package) whose own names are shortened as they are
   * bundled: esbuild's `minifyIdentifiers` over each file alone, so the names the file exports, and
   * every other file of the entry, stay as written (and so does each function's `name` there). For
   * generated validators, which are most of a `/validate` entry's text and are loaded at start-up:
   * Node decodes a module's text twice and V8 scans all of it, so the entry's start-up cost follows its
   * bytes. Whitespace and comments stay: esbuild's `minifyWhitespace` would drop the `@__PURE__`
   * annotations that let a user's bundler keep only the validators it imports.
   */
  shortNames?: RegExp;
  /**
   * Ship the entry's lines without their indentation (the rest of esbuild's whitespace stays, and
   * every comment). The build checks that this changed no token: esbuild's whitespace-minified
   * print of the output is the same before and after, or the build fails (an indented line inside
   * a template literal would be one).
   */
  stripIndentation?: boolean;
}

/** A protocol package's `/validate`: its generated validators, with the format helpers they use inlined. */
export const VALIDATE_ENTRY: StandaloneEntry = {
  name: "validate",
  owned: ["src/generated"],
  inline: ["@flowspec/runtime/ajv"],
  // ajv's code: `vErrors`, `instancePath`, `data12`, `_errs34`, `validate56` thousands of times over.
  shortNames: /^src\/generated\/validators\.[^/]+\.ts$/,
  // ajv's code nests deeply: esbuild indents it by two spaces a level.
  stripIndentation: true,
};

export function withStandaloneEntry(base: Options & { entry: Record<string, string> }, standalone: StandaloneEntry): Options[] {
  const { [standalone.name]: source, ...others } = base.entry;
  if (source === undefined) throw new Error(`no entry "${standalone.name}"`);
  const sourcePath = resolve(source);
  const owned = (standalone.owned ?? []).map((path) => resolve(path));
  const isOwned = (path: string) => owned.some((root) => path === root || path.startsWith(root + sep));
  return [
    {
      ...base,
      entry: { [standalone.name]: source },
      splitting: false,
      noExternal: [...(base.noExternal ?? []), ...(standalone.inline ?? [])],
      esbuildPlugins: [...(base.esbuildPlugins ?? []), ...(standalone.shortNames ? [shortNamesPlugin(standalone.shortNames)] : [])],
      plugins: [...(base.plugins ?? []), ...(standalone.stripIndentation ? [stripIndentationPlugin] : [])],
      dts: false,
      // The other config cleans the folder (the two run at once), sparing this entry's files.
      clean: false,
      onSuccess: undefined,
    },
    {
      ...base,
      entry: others,
      // Declarations for every entry come from one program, as before.
      dts: base.dts ? { entry: base.entry } : false,
      clean: base.clean ? [`!${standalone.name}.js`, `!${standalone.name}.cjs`] : false,
      esbuildPlugins: [
        ...(base.esbuildPlugins ?? []),
        {
          name: "standalone-entry",
          setup(build) {
            // tsup builds CommonJS with splitting as ESM and converts it, so the format is read off the output extension.
            const output = `./${standalone.name}${build.initialOptions.outExtension?.[".js"] ?? ".js"}`;
            build.onResolve({ filter: /^\.\.?\// }, (args) => {
              const target = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
              // The entry's name, not its absolute path, which esbuild would print into the output.
              if (target === sourcePath) return { path: standalone.name, namespace: "standalone-entry" };
              if (isOwned(target)) {
                return { errors: [{ text: `${args.importer} imports ${args.path}, which only the "${standalone.name}" entry may load; import it from ${source} instead` }] };
              }
              return undefined;
            });
            build.onResolve({ filter: /^standalone-entry$/ }, () => ({ path: output, external: true }));
            // Named re-exports, not `export *`: esbuild drops an external's `export *` once it lands in a shared chunk.
            build.onLoad({ filter: /.*/, namespace: "standalone-entry" }, async () => ({
              contents: `export { ${(await exportNames(build.esbuild, sourcePath)).join(", ")} } from "standalone-entry";`,
              loader: "js",
            }));
          },
        },
      ],
    },
  ];
}

/** Shortens the names of the files `pattern` matches (paths relative to the package, `/`-separated), each file on its own. */
function shortNamesPlugin(pattern: RegExp): NonNullable<Options["esbuildPlugins"]>[number] {
  return {
    name: "short-names",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!pattern.test(relative(process.cwd(), args.path).split(sep).join("/"))) return undefined;
        const source = await readFile(args.path, "utf8");
        const { code } = await build.esbuild.transform(source, { loader: "ts", format: "esm", minifyIdentifiers: true, sourcefile: args.path });
        return { contents: code, loader: "js" };
      });
    },
  };
}

/**
 * `code` without the indentation of its lines. Throws if that changed a token: esbuild's
 * whitespace-minified print of the code must be the same before and after (an indented line inside
 * a multi-line template literal is not).
 */
export function withoutIndentation(code: string, file: string): string {
  const stripped = code.replace(/^[ \t]+/gm, "");
  const tokens = (text: string) => transformSync(text, { loader: "js", minifyWhitespace: true, logLevel: "silent" }).code;
  if (tokens(stripped) !== tokens(code)) throw new Error(`${file}: removing indentation would change the code (a multi-line template literal?); build it without stripIndentation`);
  return stripped;
}

const stripIndentationPlugin: NonNullable<Options["plugins"]>[number] = {
  name: "strip-indentation",
  renderChunk: (code, chunk) => (/\.c?js$/.test(chunk.path) ? { code: withoutIndentation(code, chunk.path) } : undefined),
};

/** The names a module exports at run time (types have none), read off an in-memory bundle of it. */
async function exportNames(esbuild: Esbuild, source: string): Promise<string[]> {
  const { metafile } = await esbuild.build({ entryPoints: [source], bundle: true, packages: "external", format: "esm", platform: "node", write: false, metafile: true, logLevel: "silent" });
  return Object.values(metafile.outputs).flatMap((output) => output.exports);
}

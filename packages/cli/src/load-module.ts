import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError } from "./io.js";
import { importPeer } from "./optional.js";

/**
 * Imports a user's module, JavaScript or TypeScript (TypeScript through tsx's loader, so no build
 * step is needed), and returns its default export.
 */
export async function importDefault(file: string, cwd: string): Promise<unknown> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new CliError(`${file}: no such file`);
  const typescript = /\.[cm]?tsx?$/.test(path);
  const tsx = typescript ? await importPeer("tsx", `${file}: loading TypeScript`, () => import("tsx/esm/api")) : undefined;
  let module: { default?: unknown };
  try {
    module = tsx ? await tsx.tsImport(pathToFileURL(path).href, import.meta.url) : await import(pathToFileURL(path).href);
  } catch (error) {
    throw new CliError(`${file}: cannot load: ${(error as Error).message}`);
  }
  const exported = unwrapCompiled(module.default);
  if (exported === undefined) throw new CliError(`${file}: has no default export`);
  return exported;
}

/**
 * `export default` compiled to CommonJS (by tsc, or by tsx in a `"type": "commonjs"` project) is
 * `exports.default` with `exports.__esModule` set, which Node's import hands over as the default
 * export's `default`: unwrap it, as TypeScript's esModuleInterop does.
 */
function unwrapCompiled(value: unknown): unknown {
  const compiled = typeof value === "object" && value !== null && (value as { __esModule?: unknown }).__esModule === true;
  return compiled ? (value as { default?: unknown }).default : value;
}

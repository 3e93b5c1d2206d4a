import { CliError } from "./io.js";

/**
 * Loads an optional peer dependency of @flowspec/cli (the code generator, tsx):
 * commands that do not need one never load it, and a CI job that only validates never installs it.
 * When it is missing, the command ends with exit 2 and the command that installs it.
 */
export async function importPeer<T>(pkg: string, neededFor: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, pkg)) throw error;
    throw new CliError(`${neededFor} needs ${pkg}, an optional peer dependency of @flowspec/cli that is not installed; install it with: npm i -D ${pkg}`);
  }
}

/** Node's "cannot find" error for this package itself (not for something it imports). */
function isMissing(error: unknown, pkg: string): boolean {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return message.includes(`'${pkg}'`) || message.includes(`'${pkg}/`);
}

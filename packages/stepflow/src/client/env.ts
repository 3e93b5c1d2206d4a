/**
 * StepFlow's substitution in a stdio plugin's `args` and `env` values (protocol notes §3.1):
 * `$NAME`, `${NAME}` and `${NAME:default}` from the runtime's environment. An unset variable
 * without a default is an error naming it. `${NAME:-x}` yields `-x` when unset, as upstream does.
 */
export function substituteEnv(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_match, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const found = env[name];
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    throw new Error(`environment variable ${name} is not set (referenced as ${_match} in ${JSON.stringify(value)})`);
  });
}

/**
 * ajv's standalone code with its string literals, comments and regular-expression literals blanked
 * out (each character a space, so offsets still match the code): what codegen searches when it
 * rewrites the code. A schema's text reaches the code inside those (`const schema12 = {...}`, a
 * `pattern`, an error message), so a description that says `require(` or names a helper must not
 * look like code. ajv writes strings with JSON.stringify (double quotes, no raw line breaks) and
 * regular expressions only as the value of a `const formatsN`.
 */
export function codeOutsideStrings(code: string): string {
  return code.replace(LITERALS, (literal) => " ".repeat(literal.length));
}

const LITERALS = /"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/|(?<=^const formats\d+ = )\/.*\/[a-z]*(?=;$)/gm;

/**
 * The `schemaPath` of the first error ajv builds after `offset`, and the schema resource its
 * validator compiles (the `sourceURL` ajv notes at the top of each function): where in the schemas
 * the code at `offset` comes from, for an error message.
 */
export function schemaPlaceAfter(code: string, offset: number): string {
  const resource = [...code.slice(0, offset).matchAll(/^\/\*# sourceURL="([^"]*)" \*\/;?$/gm)].pop()?.[1];
  const schemaPath = /schemaPath:"([^"]*)"/.exec(code.slice(offset))?.[1];
  if (schemaPath === undefined) return resource ?? "an unknown place";
  return resource === undefined || !schemaPath.startsWith("#") ? schemaPath : `${resource.replace(/#$/, "")}${schemaPath}`;
}

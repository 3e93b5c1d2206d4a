// Written by build.ts: the example documents of examples/documents, as text.
declare module "virtual:examples" {
  const examples: readonly { name: string; file: string; text: string }[];
  export default examples;
}

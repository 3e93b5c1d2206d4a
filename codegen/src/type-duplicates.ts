import { Node, SyntaxKind, type Statement } from "ts-morph";

/**
 * json-schema-to-typescript declares a numbered copy (`CustomParameters1`, `CustomParameters2`, …)
 * each time it meets another schema with a name it has given, even when the two are the same
 * type. Copies whose declarations are the same but for their names (and JSDoc) are merged into
 * the first of them.
 */
export interface TypeMerges {
  /** Name of a merged copy → the name that stays. */
  into: Map<string, string>;
  /** Name of a merged copy → its JSDoc, which moves to the properties it typed. */
  docs: Map<string, string>;
}

export function numberedDuplicates(statements: readonly Statement[]): TypeMerges {
  const into = new Map<string, string>();
  const docs = new Map<string, string>();
  const byShape = new Map<string, string>();
  const named = statements.flatMap((statement) => {
    const declaration = statement.asKind(SyntaxKind.InterfaceDeclaration) ?? statement.asKind(SyntaxKind.TypeAliasDeclaration);
    return declaration ? [{ declaration, name: declaration.getName() }] : [];
  });
  // `Foo` before `Foo1` before `Foo2`, so the copies merge into the plain name when there is one.
  named.sort((a, b) => (a.name.length - b.name.length) || (a.name < b.name ? -1 : 1));
  for (const { declaration, name } of named) {
    const base = /^(.*?)\d+$/.exec(name)?.[1] ?? name;
    // The declaration without its JSDoc and with its own name (also where it refers to itself) blanked.
    const shape = `${base}\0${declaration.getText().replace(new RegExp(`\\b${name}\\b`, "g"), "\0")}`;
    const first = byShape.get(shape);
    if (first === undefined) {
      byShape.set(shape, name);
      continue;
    }
    into.set(name, first);
    const jsDoc = declaration.getJsDocs().map((doc) => doc.getText()).join("\n");
    if (jsDoc) docs.set(name, jsDoc);
  }
  return { into, docs };
}

/**
 * A node's text with every reference to a merged copy renamed to the type that stays. A property
 * typed by a copy that had JSDoc of its own (the property's description, which the generator put
 * on the type) gets that JSDoc, unless it has one.
 */
export function textWithMerges(node: Node, merges: TypeMerges, withLeadingTrivia = false): string {
  const start = withLeadingTrivia ? node.getFullStart() : node.getStart();
  let text = withLeadingTrivia ? node.getFullText() : node.getText();
  if (merges.into.size === 0) return text;
  const edits: { at: number; end: number; text: string }[] = [];
  const references = [node, ...node.getDescendantsOfKind(SyntaxKind.TypeReference)].filter(Node.isTypeReference);
  for (const reference of references) {
    const typeName = reference.getTypeName();
    const kept = merges.into.get(typeName.getText());
    if (kept === undefined) continue;
    edits.push({ at: typeName.getStart(), end: typeName.getEnd(), text: kept });
    const property = reference.getParentIfKind(SyntaxKind.PropertySignature);
    const doc = merges.docs.get(typeName.getText());
    if (property && doc && property.getJsDocs().length === 0) edits.push({ at: property.getStart(), end: property.getStart(), text: `${doc}\n` });
  }
  for (const edit of edits.sort((a, b) => b.at - a.at)) text = text.slice(0, edit.at - start) + edit.text + text.slice(edit.end - start);
  return text;
}

// Finds where a class of ours extends another class of ours (compose, don't inherit), errors aside: files are parsed
// with the TypeScript compiler, and a base is ours when its name is a class declared in the same file or imported from
// a relative path. A base that is (through our classes) a subclass of Error is an error class and is allowed.
import ts from 'typescript';

/** One source file: its path (for the message) and text. */
export interface SourceText {
  path: string;
  text: string;
}

interface Heritage {
  path: string;
  line: number;
  name: string;
  /** The base as written (`Store`, `ns.Store`, `mixin(Store)`): its leftmost identifier decides whose it is. */
  base: string;
  root: string;
  ours: boolean;
}

/** The leftmost identifier of an `extends` expression: `A`, `a.B` -> `a`, `f(A)` -> `f`. */
function rootOf(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return rootOf(e.expression);
  if (ts.isCallExpression(e)) return rootOf(e.expression);
  if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) return rootOf(e.expression);
  return undefined;
}

function heritageOf(file: SourceText): Heritage[] {
  const sf = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const local = new Set<string>();
  const relative = new Set<string>();
  const found: Heritage[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && node.name) local.add(node.name.text);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const clause = node.importClause;
      if (clause?.name) relative.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) relative.add(el.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) relative.add(bindings.name.text);
    }
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      for (const clause of node.heritageClauses ?? []) {
        if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
        for (const t of clause.types) {
          const root = rootOf(t.expression) ?? '';
          found.push({
            path: file.path,
            line: sf.getLineAndCharacterOfPosition(t.getStart(sf)).line + 1,
            name: node.name?.text ?? '(anonymous class)',
            base: t.expression.getText(sf),
            root,
            ours: false,
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // Decided after the walk: a class declared below its subclass is still the file's own.
  for (const h of found) h.ours = local.has(h.root) || relative.has(h.root);
  return found;
}

/** Every `class X extends Y` in `files` where Y is ours and not an error class, as `path:line: X extends Y`. */
export function ownInheritance(files: readonly SourceText[]): string[] {
  const all = files.flatMap(heritageOf);
  // Our error classes: those whose base is Error, or one of our error classes (to a fixed point: chains of any length).
  const errors = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const h of all) {
      const isError = h.base === 'Error' ? !h.ours : h.ours && errors.has(h.base);
      if (isError && !errors.has(h.name)) {
        errors.add(h.name);
        grew = true;
      }
    }
  }
  return all.filter((h) => h.ours && !errors.has(h.base)).map((h) => `${h.path}:${h.line}: ${h.name} extends ${h.base}`);
}

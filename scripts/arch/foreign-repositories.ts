/**
 * `arch:check` measure: imports of another module's repository (ADR 0033).
 *
 * A module's `*.repository.ts` is private to its server folder (modules/<x>, compat/<x>,
 * platform/<x>): other folders call its service or a narrow query its `index.ts` exports. Every
 * import form counts — value, type-only (`import type`, `{ type X }`), re-export and dynamic
 * `import()` — because a type taken from a repository couples the caller to the table layout as
 * much as a call does. Test files are not counted: tests may set up rows however they need.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ForeignRepositoryImport {
  file: string;
  line: number;
  text: string;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const isTest = (rel: string) => /\.test\.(ts|tsx)$|(^|\/)test\/|(^|\/)test-[^/]*\.ts$|\.contract\.ts$/.test(rel);
const isRepository = (f: string) => /\.repository\.(ts|mts)$/.test(f);

function sources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** The folder that owns a file: modules/<x>, compat/<x>, platform/<x>, or the file itself at the top. */
function unitOf(serverSrc: string, file: string): string {
  const rel = path.relative(serverSrc, file).split(path.sep);
  return rel.length >= 3 && ['modules', 'compat', 'platform'].includes(rel[0]!) ? `${rel[0]}/${rel[1]}` : rel.join('/');
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.mts`, path.join(base, 'index.ts')]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

/** Every module specifier a file names: import/export declarations (type-only included) and `import()`. */
function specifiers(sf: ts.SourceFile): { spec: string; node: ts.Node }[] {
  const out: { spec: string; node: ts.Node }[] = [];
  const visit = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      out.push({ spec: n.moduleSpecifier.text, node: n });
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
      out.push({ spec: n.arguments[0].text, node: n });
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      out.push({ spec: n.argument.literal.text, node: n });
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

/** Imports, in the server's source, of a repository owned by another folder. */
export function foreignRepositoryImports(root: string): ForeignRepositoryImport[] {
  const serverSrc = path.join(root, 'apps/server/src');
  const found: ForeignRepositoryImport[] = [];
  for (const file of sources(serverSrc)) {
    const rel = path.relative(root, file);
    if (isTest(rel)) continue;
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const { spec, node } of specifiers(sf)) {
      const target = resolve(file, spec);
      if (!target || !isRepository(target) || unitOf(serverSrc, target) === unitOf(serverSrc, file)) continue;
      found.push({
        file: rel,
        line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
        text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 120),
      });
    }
  }
  return found;
}

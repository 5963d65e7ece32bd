/**
 * `npm run arch:check`: the counts ADR 0012 names, measured on the source tree.
 *
 *   query statements outside repositories          drizzle calls (select/insert/update/delete/execute/
 *                                                  transaction) on a db/tx handle outside *.repository.ts
 *   files importing the schema outside repositories non-test files importing platform/db/schema
 *   module import cycles                           cycles between server folders (modules/<x>,
 *                                                  compat/<x>, platform/<x>) and between files (server, web),
 *                                                  type-only imports included (ADR 0032)
 *   routes without a response schema (JSON)        route registrations whose options lack
 *                                                  schema.response and whose handler answers JSON
 *   error codes answered but not in the contract   code literals the server sends that ErrorCode lacks
 *   bus.publish/track outside listeners            realtime and analytics calls outside *.listeners.ts
 *                                                  (outbound-calls.ts, ADR 0031)
 *   compat imports of module internals             compat-entries.ts: an adapter importing a module file
 *                                                  other than its public entry (ADR 0032)
 *   app.ts imports of module internals             app-modules.ts: app.ts importing a module file other
 *                                                  than its <x>.module.ts (ADR 0032)
 *   imports of another module's repository         foreign-repositories.ts: a repository is private to
 *                                                  its folder, type-only imports included (ADR 0033)
 *   schema drift                                   schema-drift.ts: a fresh PGlite migrated with the SQL
 *                                                  migrations vs the drizzle tables (ADR 0033)
 *
 * Exit 1 when any count is above 0; `--report` prints the same and exits 0 (while work is under way).
 * `--json` prints the counts as one JSON object.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { checkOutboundCalls, outboundCount, printOutbound } from './outbound-calls.js';
import { appModuleInternals } from './app-modules.js';
import { compatInternalImports } from './compat-entries.js';
import { foreignRepositoryImports } from './foreign-repositories.js';
import { schemaDrift } from './schema-drift.js';

export interface Finding {
  file: string;
  line: number;
  text: string;
}
export interface ArchReport {
  queriesOutsideRepositories: Finding[];
  schemaImportsOutsideRepositories: Finding[];
  moduleCycles: string[][];
  fileCycles: string[][];
  routesWithoutResponseSchema: Finding[];
  codesNotInContract: Finding[];
}

const SOURCE = /\.(ts|tsx|mts)$/;
const isTest = (f: string) => /\.test\.(ts|tsx)$|(^|\/)test\/|(^|\/)test-[^/]*\.ts$|\.contract\.ts$/.test(f);

export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void) {
  visit(node);
  node.forEachChild((c) => walk(c, visit));
}

const at = (root: string, sf: ts.SourceFile, node: ts.Node, text?: string): Finding => ({
  file: path.relative(root, sf.fileName),
  line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
  text: (text ?? node.getText(sf)).replace(/\s+/g, ' ').slice(0, 120),
});

// ---- imports --------------------------------------------------------------------------------

interface ImportRef {
  spec: string;
  typeOnly: boolean;
  node: ts.Node;
}
function importsOf(sf: ts.SourceFile): ImportRef[] {
  const out: ImportRef[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      const typeOnly = Boolean(
        c &&
        (c.isTypeOnly ||
          (!c.name &&
            c.namedBindings &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly))),
      );
      out.push({ spec: st.moduleSpecifier.text, typeOnly, node: st });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      out.push({ spec: st.moduleSpecifier.text, typeOnly: st.isTypeOnly, node: st });
    }
  }
  walk(sf, (n) => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      // Dynamic imports are lazy edges: they do not make a load-order cycle, but they do couple modules.
      out.push({ spec: n.arguments[0].text, typeOnly: false, node: n });
    }
  });
  return out;
}

/** Resolves a relative import to a file on disk (`./x.js` → `./x.ts`, `./dir` → `./dir/index.ts`). */
export function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  for (const c of candidates) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

/** Strongly connected components with more than one node (or a self-loop): each is one cycle group. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)?.has(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return out;
}

/** The server folder a file belongs to: modules/<x>, compat/<x>, platform/<x>, or the file itself at the top. */
export function serverUnit(serverSrc: string, file: string): string {
  const rel = path.relative(serverSrc, file).split(path.sep);
  return rel.length >= 3 && ['modules', 'compat', 'platform'].includes(rel[0]!) ? `${rel[0]}/${rel[1]}` : rel.join('/');
}

// ---- the checks -----------------------------------------------------------------------------

/** Statements, not boundaries: a service may open `db.transaction` and hand `tx` to repositories. */
const QUERY_METHODS = new Set(['select', 'selectDistinct', 'insert', 'update', 'delete', 'execute', 'query']);
const DB_HANDLE = /(^|\.)(db|tx|trx|database)$/;
const isRepository = (f: string) => /\.repository\.ts$/.test(f);
const isDbPlatform = (rel: string) => rel.startsWith('apps/server/src/platform/db/');

export function check(root: string, contractCodes: Set<string>): ArchReport {
  const serverSrc = path.join(root, 'apps/server/src');
  const webSrc = path.join(root, 'apps/web/src');
  const schemaFile = path.join(serverSrc, 'platform/db/schema.ts');
  const schemaDir = path.join(serverSrc, 'platform/db/schema') + path.sep; // one file per owning module (ADR 0033)
  const report: ArchReport = {
    queriesOutsideRepositories: [],
    schemaImportsOutsideRepositories: [],
    moduleCycles: [],
    fileCycles: [],
    routesWithoutResponseSchema: [],
    codesNotInContract: [],
  };
  const prefixes = new Set([...contractCodes].filter((c) => c.includes('/')).map((c) => c.split('/')[0]!));
  const codeLiteral = new RegExp(`^(${[...prefixes].join('|')})/[a-z0-9-]+$`);

  const unitGraph = new Map<string, Set<string>>();
  const fileGraphs = { server: new Map<string, Set<string>>(), web: new Map<string, Set<string>>() };

  for (const [side, src] of [
    ['server', serverSrc],
    ['web', webSrc],
  ] as const) {
    for (const file of listFiles(src)) {
      if (isTest(path.relative(root, file))) continue;
      const sf = parse(file);
      const rel = path.relative(root, file);
      const edges = new Set<string>();
      for (const imp of importsOf(sf)) {
        const target = resolveImport(file, imp.spec);
        if (!target) continue;
        if (side === 'server' && (target === schemaFile || target.startsWith(schemaDir)) && !isRepository(file) && !isDbPlatform(rel)) {
          report.schemaImportsOutsideRepositories.push(at(root, sf, imp.node));
        }
        // Type-only imports count too (ADR 0032): a type cycle still ties the two files' designs together.
        edges.add(target);
        if (side === 'server' && target.startsWith(serverSrc)) {
          const a = serverUnit(serverSrc, file);
          const b = serverUnit(serverSrc, target);
          if (a !== b && a.includes('/') && b.includes('/')) {
            if (!unitGraph.has(a)) unitGraph.set(a, new Set());
            unitGraph.get(a)!.add(b);
          }
        }
      }
      fileGraphs[side].set(file, edges);
      if (side !== 'server') continue;

      // query statements
      if (!isRepository(file) && !isDbPlatform(rel)) {
        walk(sf, (n) => {
          if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return;
          const name = n.expression.name.text;
          const receiver = n.expression.expression.getText(sf).replace(/\s+/g, '');
          if (QUERY_METHODS.has(name) && DB_HANDLE.test(receiver)) report.queriesOutsideRepositories.push(at(root, sf, n, `${receiver}.${name}(…)`));
        });
      }

      // routes
      walk(sf, (n) => {
        const route = routeOf(n, sf);
        if (route && !route.hasResponse && route.json) report.routesWithoutResponseSchema.push(at(root, sf, n, `${route.method} ${route.url}`));
      });

      // error codes
      walk(sf, (n) => {
        if (!ts.isStringLiteral(n) && !ts.isNoSubstitutionTemplateLiteral(n)) return;
        const value = n.text;
        if (contractCodes.has(value)) return;
        if (codeLiteral.test(value) || inCodePosition(n)) {
          if (/^[a-z]+\/[a-z0-9-]+$/.test(value) || /^[A-Z][A-Za-z]+$/.test(value)) report.codesNotInContract.push(at(root, sf, n));
        }
      });
    }
  }
  report.moduleCycles = cycles(unitGraph);
  report.fileCycles = [...cycles(fileGraphs.server), ...cycles(fileGraphs.web)].map((c) => c.map((f) => path.relative(root, f)));
  return report;
}

/** A literal in a position that names an error code: `code: '…'`, `new AppError(status, '…')`, `errors.conflict('…')`, `errorBody('…')`. */
function inCodePosition(n: ts.Node): boolean {
  const p = n.parent;
  if (ts.isPropertyAssignment(p) && p.initializer === n && p.name.getText() === 'code') return true;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.arguments) {
    const callee = p.expression.getText();
    const i = p.arguments.indexOf(n as ts.Expression);
    if (/(^|\.)(AppError|tusError)$/.test(callee) && i === 1) return true;
    if (/(^|\.)(conflict|errorBody)$/.test(callee) && i === 0) return true;
  }
  return false;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);
/** Handlers that answer something other than a JSON body. */
const NOT_JSON =
  /reply\.(redirect|hijack|sendFile)\(|\.type\((?!\s*['"`]application\/json)|['"`]content-type['"`]\s*,(?!\s*['"`]application\/json)|reply\.raw\b|\.(code|status)\(\s*(204|30\d)\s*\)|\b(sendBlob|sendIndex|createReadStream)\(/i;

interface RouteDecl {
  method: string;
  url: string;
  hasResponse: boolean;
  json: boolean;
}
function routeOf(n: ts.Node, sf: ts.SourceFile): RouteDecl | null {
  if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression)) return null;
  const method = n.expression.name.text;
  const [first, second, third] = n.arguments;
  let url: string | null = null;
  let opts: ts.ObjectLiteralExpression | null = null;
  let handler: ts.Node | undefined;
  if (HTTP_METHODS.has(method) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) && first.text.startsWith('/')) {
    url = first.text;
    if (second && ts.isObjectLiteralExpression(second)) {
      opts = second;
      handler = third;
    } else handler = second;
  } else if (method === 'route' && first && ts.isObjectLiteralExpression(first)) {
    const u = prop(first, 'url');
    if (!u || !(ts.isStringLiteral(u) || ts.isNoSubstitutionTemplateLiteral(u))) return null;
    url = u.text;
    opts = first;
    handler = prop(first, 'handler');
  } else return null;
  if (opts && prop(opts, 'websocket')?.kind === ts.SyntaxKind.TrueKeyword) return null;
  const schema = opts ? prop(opts, 'schema') : undefined;
  const hasResponse = Boolean(schema && (!ts.isObjectLiteralExpression(schema) || prop(schema, 'response')));
  const routeMethod = method === 'route' ? (prop(opts!, 'method')?.getText(sf).replace(/['"`]/g, '') ?? 'ROUTE') : method.toUpperCase();
  const json = !NOT_JSON.test(handler ? handlerText(handler, sf) : '');
  return { method: routeMethod, url, hasResponse, json };
}

/** A handler's own text, or the function it names when it is an identifier declared in the same file. */
function handlerText(handler: ts.Node, sf: ts.SourceFile): string {
  if (ts.isIdentifier(handler)) {
    let found = '';
    walk(sf, (n) => {
      if ((ts.isFunctionDeclaration(n) || ts.isVariableDeclaration(n)) && n.name?.getText(sf) === handler.text) found = n.getText(sf);
    });
    return found;
  }
  return handler.getText(sf);
}

function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p) && p.name.getText() === name) return p.name;
  }
  return undefined;
}

// ---- main -----------------------------------------------------------------------------------

export function counts(r: ArchReport) {
  return {
    queriesOutsideRepositories: r.queriesOutsideRepositories.length,
    schemaImportsOutsideRepositories: new Set(r.schemaImportsOutsideRepositories.map((f) => f.file)).size,
    moduleCycles: r.moduleCycles.length + r.fileCycles.length,
    routesWithoutResponseSchema: r.routesWithoutResponseSchema.length,
    codesNotInContract: r.codesNotInContract.length,
  };
}

function byFile(findings: Finding[]): string {
  const m = new Map<string, number>();
  for (const f of findings) m.set(f.file, (m.get(f.file) ?? 0) + 1);
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([f, n]) => `      ${n.toString().padStart(3)}  ${f}`)
    .join('\n');
}

async function main() {
  const root = path.resolve(import.meta.dirname, '../..');
  const { ErrorCode } = (await import(pathToFileURL(path.join(root, 'packages/contracts/src/errors.ts')).href)) as { ErrorCode: Record<string, string> };
  const report = check(root, new Set(Object.values(ErrorCode)));
  const compat = compatInternalImports(root);
  const appInternals = appModuleInternals(root);
  const outbound = checkOutboundCalls(root, listFiles(path.join(root, 'apps/server/src')));
  const foreign = foreignRepositoryImports(root);
  const drift = await schemaDrift(root);
  const c = {
    ...counts(report),
    outboundOutsideListeners: outboundCount(outbound),
    compatInternalImports: compat.length,
    appModuleInternals: appInternals.length,
    foreignRepositoryImports: foreign.length,
    schemaDrift: drift.length,
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(c));
  } else {
    const list = (fs: Finding[]) => fs.map((f) => `      ${f.file}:${f.line}  ${f.text}`).join('\n');
    console.log(`query statements outside repositories          ${c.queriesOutsideRepositories}`);
    if (c.queriesOutsideRepositories) console.log(byFile(report.queriesOutsideRepositories));
    console.log(`files importing the schema outside repositories ${c.schemaImportsOutsideRepositories}`);
    if (c.schemaImportsOutsideRepositories) console.log(byFile(report.schemaImportsOutsideRepositories));
    console.log(`module import cycles                           ${c.moduleCycles}`);
    for (const cyc of report.moduleCycles) console.log(`      folders: ${cyc.join(' ↔ ')}`);
    for (const cyc of report.fileCycles) console.log(`      files:   ${cyc.join(' ↔ ')}`);
    console.log(`routes without a response schema (JSON)        ${c.routesWithoutResponseSchema}`);
    if (c.routesWithoutResponseSchema) console.log(list(report.routesWithoutResponseSchema));
    console.log(`error codes answered but not in the contract   ${c.codesNotInContract}`);
    if (c.codesNotInContract) console.log(list(report.codesNotInContract));
    console.log(printOutbound(outbound));
    console.log(`compat imports of module internals             ${c.compatInternalImports}`);
    if (c.compatInternalImports) console.log(list(compat));
    console.log(`app.ts imports of module internals             ${c.appModuleInternals}`);
    if (c.appModuleInternals) console.log(list(appInternals));
    console.log(`imports of another module's repository        ${c.foreignRepositoryImports}`);
    if (c.foreignRepositoryImports) console.log(list(foreign));
    console.log(`schema drift (migrations vs drizzle tables)    ${c.schemaDrift}`);
    for (const d of drift) console.log(`      ${d}`);
  }
  const bad = Object.values(c).some((n) => n > 0);
  if (bad && !process.argv.includes('--report')) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { resolveImport, type Finding } from './arch-check.js';

/**
 * app.ts lists modules and imports nothing else of them (ADR 0032): from `modules/` and `compat/`
 * only `<x>/<x>.module.ts`, whose `register(app, ctx)` adds the module's routes, jobs, topic
 * authorisers and listeners. Anything else (a routes file, a service for a hook) is a module
 * internal that belongs in its register().
 */
export function appModuleInternals(root: string): Finding[] {
  const src = path.join(root, 'apps/server/src');
  const file = path.join(src, 'app.ts');
  if (!fs.existsSync(file)) return [];
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  for (const st of sf.statements) {
    if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const target = resolveImport(file, st.moduleSpecifier.text);
    if (!target) continue;
    const rel = path.relative(src, target).split(path.sep);
    if (rel[0] !== 'modules' && rel[0] !== 'compat') continue;
    if (rel.length === 3 && rel[2] === `${rel[1]}.module.ts`) continue;
    out.push({
      file: path.relative(root, file),
      line: sf.getLineAndCharacterOfPosition(st.getStart(sf)).line + 1,
      text: st.getText(sf).replace(/\s+/g, ' ').slice(0, 120),
    });
  }
  return out;
}

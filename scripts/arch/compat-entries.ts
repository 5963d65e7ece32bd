import path from 'node:path';
import ts from 'typescript';
import fs from 'node:fs';
import { listFiles, resolveImport, type Finding } from './arch-check.js';

/**
 * Compat adapters import nothing of a module but its public entry (ADR 0032): `modules/<x>/<x>.service.ts`
 * (for training: the protocol-neutral run lifecycle) or `modules/<x>/index.ts`. So a Platform metric
 * goes adapter → training lifecycle → events, one way, and a module's repositories, policies, helpers
 * stay its own. Type-only imports count too. Tests are not adapters.
 */
export function compatInternalImports(root: string): Finding[] {
  const compatDir = path.join(root, 'apps/server/src/compat');
  const modulesDir = path.join(root, 'apps/server/src/modules');
  const out: Finding[] = [];
  for (const file of listFiles(compatDir)) {
    if (/\.test\.ts$/.test(file)) continue;
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const specs: Array<{ spec: string; node: ts.Node }> = [];
    const visit = (n: ts.Node) => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
        specs.push({ spec: n.moduleSpecifier.text, node: n });
      else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
        specs.push({ spec: n.arguments[0].text, node: n });
      else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
        specs.push({ spec: n.argument.literal.text, node: n });
      n.forEachChild(visit);
    };
    visit(sf);
    for (const { spec, node } of specs) {
      const target = resolveImport(file, spec);
      if (!target || !target.startsWith(modulesDir + path.sep)) continue;
      const [name, ...rest] = path.relative(modulesDir, target).split(path.sep);
      const entry = rest.join('/');
      if (entry === `${name}.service.ts` || entry === 'index.ts') continue;
      out.push({
        file: path.relative(root, file),
        line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
        text: node.getText(sf).replace(/\s+/g, ' ').slice(0, 120),
      });
    }
  }
  return out;
}

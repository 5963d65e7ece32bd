/**
 * arch:check measure "bus.publish/track outside listeners" (ADR 0031): realtime messages
 * (`ctx.bus.publish`) and analytics (`track(…)`) are sent only by the domain event listeners that
 * modules own (`*.listeners.ts`); services emit one event per business change instead. Not counted:
 * tests, the realtime platform (the bus itself) and the analytics module's internals.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Finding } from './arch-check.js';

/**
 * TEMPORARY: files not converted to domain events yet (training, agents, exports and compat are
 * converted after the training split). Their calls are reported but do not fail the check; an entry
 * whose file no longer calls either fails it, so this list only shrinks. Empty it, then delete it.
 */
export const UNCONVERTED_FILES: readonly string[] = [];

export interface OutboundReport {
  /** calls that fail the check */
  outsideListeners: Finding[];
  /** calls in UNCONVERTED_FILES (reported, temporarily allowed) */
  unconverted: Finding[];
  /** UNCONVERTED_FILES entries with no call left (fail the check: remove them) */
  staleEntries: string[];
}

const isTest = (rel: string) => /\.test\.(ts|tsx)$|(^|\/)test\/|(^|\/)test-[^/]*\.ts$/.test(rel);
const isExempt = (rel: string) =>
  /\.listeners\.ts$/.test(rel) || rel.startsWith('apps/server/src/platform/realtime/') || rel.startsWith('apps/server/src/modules/analytics/');
const BUS = /(^|\.)bus$/;

/** `….bus.publish(…)` and `track(…)` / `….track(…)` calls of one source file. */
export function outboundCalls(root: string, file: string, text = fs.readFileSync(file, 'utf8')): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Finding[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      let hit: string | null = null;
      if (ts.isIdentifier(callee) && callee.text === 'track') hit = 'track(…)';
      else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'track') hit = `${callee.expression.getText(sf)}.track(…)`;
      else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'publish') {
        const receiver = callee.expression.getText(sf).replace(/\s+/g, '');
        if (BUS.test(receiver)) hit = `${receiver}.publish(…)`;
      }
      if (hit) out.push({ file: path.relative(root, file), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, text: hit });
    }
    n.forEachChild(visit);
  };
  visit(sf);
  return out;
}

/** `files`: the server's source files (arch-check's listFiles of apps/server/src). */
export function checkOutboundCalls(root: string, files: string[], unconverted: readonly string[] = UNCONVERTED_FILES): OutboundReport {
  const report: OutboundReport = { outsideListeners: [], unconverted: [], staleEntries: [] };
  const seen = new Set<string>();
  for (const file of files) {
    const rel = path.relative(root, file);
    if (isTest(rel) || isExempt(rel)) continue;
    const calls = outboundCalls(root, file);
    if (!calls.length) continue;
    if (unconverted.includes(rel)) {
      report.unconverted.push(...calls);
      seen.add(rel);
    } else report.outsideListeners.push(...calls);
  }
  report.staleEntries = unconverted.filter((f) => !seen.has(f));
  return report;
}

/** The count that fails `arch:check`: calls outside listeners, plus stale allow-list entries. */
export const outboundCount = (r: OutboundReport) => r.outsideListeners.length + r.staleEntries.length;

export function printOutbound(r: OutboundReport): string {
  const lines = [`bus.publish/track outside listeners            ${outboundCount(r)}`];
  for (const f of r.outsideListeners) lines.push(`      ${f.file}:${f.line}  ${f.text}`);
  for (const f of r.staleEntries) lines.push(`      ${f}  (in UNCONVERTED_FILES of scripts/arch/outbound-calls.ts but converted: remove the entry)`);
  if (r.unconverted.length) {
    const files = new Set(r.unconverted.map((f) => f.file)).size;
    lines.push(`      temporarily allowed (UNCONVERTED_FILES): ${r.unconverted.length} calls in ${files} files`);
    for (const f of r.unconverted) lines.push(`        ${f.file}:${f.line}  ${f.text}`);
  }
  return lines.join('\n');
}

/**
 * `npm test`: every suite in order, each timed; stops at the first failing suite.
 * Prints each suite's minutes as it ends and a table at the end (CI keeps the total under
 * 50 minutes; each suite states its budget here so an overrun is visible in the log). The budgets add
 * up to 44 minutes, leaving the rest of the 50 to CI's set-up (packages, the clients, npm install).
 */
import { spawnSync } from 'node:child_process';

const suites: { script: string; budgetMin: number }[] = [
  { script: 'lint', budgetMin: 1.5 },
  { script: 'typecheck', budgetMin: 2 },
  { script: 'test:unit', budgetMin: 3.5 },
  { script: 'test:server:pglite', budgetMin: 10 },
  { script: 'test:server:pg', budgetMin: 7 },
  { script: 'test:clients', budgetMin: 4 },
  { script: 'test:scaleout', budgetMin: 3 },
  { script: 'test:e2e', budgetMin: 13 },
];

const only = process.argv.slice(2);
const rows: string[] = [];
const started = Date.now();
let failed: string | null = null;
for (const { script, budgetMin } of suites) {
  if (only.length && !only.includes(script)) continue;
  const t0 = Date.now();
  console.log(`\n=== ${script} (budget ${budgetMin} min) ===`);
  const run = spawnSync('npm', ['run', script], { stdio: 'inherit', env: process.env });
  const minutes = (Date.now() - t0) / 60_000;
  const ok = run.status === 0;
  const line = `${script.padEnd(20)} ${minutes.toFixed(1).padStart(5)} min  (budget ${budgetMin})  ${ok ? 'ok' : 'FAILED'}${minutes > budgetMin ? '  over budget' : ''}`;
  console.log(`=== ${line}`);
  rows.push(line);
  if (!ok) {
    failed ??= script;
    // TEST_ALL_KEEP_GOING=1 runs the remaining suites too (a full picture in one run).
    if (!process.env.TEST_ALL_KEEP_GOING) break;
  }
}
console.log('\n=== suite minutes ===');
for (const row of rows) console.log(row);
console.log(`total                ${((Date.now() - started) / 60_000).toFixed(1).padStart(5)} min`);
if (failed) {
  console.error(`npm test: ${failed} failed`);
  process.exit(1);
}

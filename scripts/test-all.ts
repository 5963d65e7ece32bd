/**
 * `npm test`: every suite, each timed; stops after the first stage with a failing suite.
 * Suites run in stages, one stage after the other; the suites of a stage run at the same time, each
 * line of their output prefixed with the suite's name. Only lint and typecheck share a stage: two
 * static tools of one core each, no server, no clock. Each test suite keeps a stage of its own: the
 * server suites already keep both cores busy with timing-sensitive tests, and no pairing of test
 * suites has yet been timed twice on a quiet 2-core machine without a flake.
 * Prints each suite's minutes as it ends and a table at the end (CI keeps the total under 50 minutes;
 * each suite states its budget here so an overrun is visible in the log). A stage takes as long as
 * its longest suite, so the budget of a stage is its largest; they add up to 42.5 minutes.
 * `tsx scripts/test-all.ts <script>…` runs only the named suites (in their stages).
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

interface Suite {
  script: string;
  budgetMin: number;
}

const stages: Suite[][] = [
  [
    { script: 'lint', budgetMin: 1.5 },
    { script: 'typecheck', budgetMin: 2 },
  ],
  [{ script: 'test:unit', budgetMin: 3.5 }],
  [{ script: 'test:server:pglite', budgetMin: 10 }],
  [{ script: 'test:server:pg', budgetMin: 7 }],
  [{ script: 'test:clients', budgetMin: 4 }],
  [{ script: 'test:scaleout', budgetMin: 3 }],
  // Two spec files at a time (e2e/playwright.config.ts).
  [{ script: 'test:e2e', budgetMin: 13 }],
];

/** Runs one suite; beside others, its lines carry its name (one line at a time, never mixed). */
function run(script: string, prefixed: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (prefixed) {
      for (const [stream, out] of [
        [child.stdout!, process.stdout],
        [child.stderr!, process.stderr],
      ] as const) {
        readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`[${script}] ${line}\n`));
      }
    }
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

const only = process.argv.slice(2);
const rows: string[] = [];
const started = Date.now();
let failed: string | null = null;
for (const stage of stages) {
  const suites = stage.filter(({ script }) => !only.length || only.includes(script));
  if (!suites.length) continue;
  const stageT0 = Date.now();
  console.log(`\n=== ${suites.map(({ script, budgetMin }) => `${script} (budget ${budgetMin} min)`).join(' + ')} ===`);
  await Promise.all(
    suites.map(async ({ script, budgetMin }) => {
      const ok = await run(script, suites.length > 1);
      const minutes = (Date.now() - stageT0) / 60_000;
      const line = `${script.padEnd(20)} ${minutes.toFixed(1).padStart(5)} min  (budget ${budgetMin})  ${ok ? 'ok' : 'FAILED'}${minutes > budgetMin ? '  over budget' : ''}`;
      console.log(`=== ${line}`);
      rows.push(line);
      if (!ok) failed ??= script;
    }),
  );
  if (suites.length > 1) rows.push(`${'  (stage)'.padEnd(20)} ${((Date.now() - stageT0) / 60_000).toFixed(1).padStart(5)} min`);
  // TEST_ALL_KEEP_GOING=1 runs the remaining stages too (a full picture in one run).
  if (failed && !process.env.TEST_ALL_KEEP_GOING) break;
}
console.log('\n=== suite minutes ===');
for (const row of rows) console.log(row);
console.log(`total                ${((Date.now() - started) / 60_000).toFixed(1).padStart(5)} min`);
if (failed) {
  console.error(`npm test: ${failed} failed`);
  process.exit(1);
}

/**
 * What the client suite ran, printed at its end by global-setup.ts (the teardown reads the results
 * file that every test file appends to; test files run in their own processes).
 *
 *   reportScenario({ generation: 'legacy', scenario: 'train + Stop + resume', epochs: 3, seconds: 41 });
 *   reportScenario({ generation: 'legacy', scenario: 'predict parity', boxes: 12, maxDiffPx: 0.0004, seconds: 9 });
 *   report('legacy: weights byte-identical to best.pt (6.2 MB)');   // a free line under the table
 *
 * The summary lists generations × scenarios with seconds, epochs trained, boxes compared and the
 * largest box difference in px, then the totals and the suite's minutes against its budget.
 */
import fs from 'node:fs';
import path from 'node:path';

export const REPORT_ENV = 'SIGHTLINE_CLIENTS_REPORT';
/** The suite's time budget (setup included) on the 2-core CI machine. */
export const SUITE_BUDGET_MIN = 6;

export interface ScenarioResult {
  generation: string;
  scenario: string;
  seconds: number;
  /** Epochs the real client trained in this scenario. */
  epochs?: number;
  /** Boxes compared between /v1/predict and the client's own predict. */
  boxes?: number;
  /** The largest difference of a box corner between the two, in px. */
  maxDiffPx?: number;
  note?: string;
}

type Entry = ({ kind: 'scenario' } & ScenarioResult) | { kind: 'line'; text: string };

function append(entry: Entry) {
  const file = process.env[REPORT_ENV];
  if (!file) {
    console.log(`[clients] ${entry.kind === 'line' ? entry.text : JSON.stringify(entry)}`);
    return;
  }
  fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function report(line: string) {
  append({ kind: 'line', text: line });
}

export function reportScenario(result: ScenarioResult) {
  append({ kind: 'scenario', ...result });
}

/** Times a scenario: `const done = timer(); … reportScenario({ …, seconds: done() })`. */
export function timer() {
  const t0 = Date.now();
  return () => Math.round((Date.now() - t0) / 100) / 10;
}

/** The summary text of a results file (global-setup teardown prints it). */
export function summarize(file: string, startedMs: number): string {
  const entries: Entry[] = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Entry)
    : [];
  const scenarios = entries.filter((e): e is { kind: 'scenario' } & ScenarioResult => e.kind === 'scenario');
  const lines = ['', '=== client suite: what ran ==='];
  const w = Math.max(10, ...scenarios.map((s) => s.scenario.length));
  lines.push(`${'generation'.padEnd(10)}  ${'scenario'.padEnd(w)}  ${'seconds'.padStart(7)}  ${'epochs'.padStart(6)}  ${'boxes'.padStart(5)}  max diff px`);
  for (const s of scenarios) {
    lines.push(
      `${s.generation.padEnd(10)}  ${s.scenario.padEnd(w)}  ${s.seconds.toFixed(1).padStart(7)}  ${String(s.epochs ?? '').padStart(6)}  ${String(s.boxes ?? '').padStart(5)}  ${s.maxDiffPx === undefined ? '' : s.maxDiffPx.toPrecision(2)}${s.note ? `  (${s.note})` : ''}`,
    );
  }
  const generations = new Set(scenarios.map((s) => s.generation));
  const epochs = scenarios.reduce((n, s) => n + (s.epochs ?? 0), 0);
  const boxes = scenarios.reduce((n, s) => n + (s.boxes ?? 0), 0);
  const diffs = scenarios.filter((s) => s.maxDiffPx !== undefined).map((s) => s.maxDiffPx!);
  lines.push(
    `total: ${generations.size} generation(s) × ${scenarios.length} scenario(s), ${epochs} epoch(s) trained, ${boxes} box(es) compared` +
      (diffs.length ? `, largest difference ${Math.max(...diffs).toPrecision(2)} px` : ''),
  );
  for (const e of entries) if (e.kind === 'line') lines.push(`- ${e.text}`);
  const minutes = (Date.now() - startedMs) / 60_000;
  lines.push(`client suite: ${minutes.toFixed(1)} min including setup (budget ${SUITE_BUDGET_MIN} min)${minutes > SUITE_BUDGET_MIN ? '  OVER BUDGET' : ''}`);
  return lines.join('\n');
}

export function reportFile(dir: string) {
  return path.join(dir, `client-suite-${process.pid}.jsonl`);
}

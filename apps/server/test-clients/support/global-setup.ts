/**
 * The client suite's global setup: find (or build) the real clients once, print what was found,
 * and at the end print what ran (support/report.ts) and the suite's minutes.
 */
import fs from 'node:fs';
import os from 'node:os';
import { locateClients } from './clients.js';
import { REPORT_ENV, reportFile, summarize } from './report.js';

export default function setup() {
  const started = Date.now();
  const found = locateClients();
  const have = (['legacy', 'platform'] as const).filter((g) => found[g]).map((g) => `${g} ${found[g]!.version}`);
  console.log(`[clients] ${have.length ? have.join(', ') : 'none'} (${((Date.now() - started) / 1000).toFixed(1)} s to locate)`);
  for (const reason of found.reasons) console.log(`[clients] ${reason}`);
  const missing = (['legacy', 'platform'] as const).filter((g) => !found[g]);
  // Under CI both generations are required: a missing one is a failure, not a skip.
  if (process.env.CI && missing.length)
    throw new Error(`the real ultralytics clients are required under CI (missing: ${missing.join(', ')}): ${found.reasons.join('; ')}`);
  if (missing.length === 2) console.log('[clients] skipping the client suite: no real ultralytics client here');
  else if (missing.length) console.log(`[clients] skipping the ${missing.join(', ')} scenarios`);
  process.env.SIGHTLINE_CLIENTS_FOUND = JSON.stringify(found);
  process.env.SIGHTLINE_CLIENTS_STARTED = String(started);
  const file = reportFile(os.tmpdir());
  fs.writeFileSync(file, '');
  process.env[REPORT_ENV] = file;
  return () => {
    console.log(summarize(file, started));
    fs.rmSync(file, { force: true });
  };
}

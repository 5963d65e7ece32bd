/** The client suite's global setup: find (or build) the real clients once, print what was found. */
import { locateClients } from './clients.js';

export default function setup() {
  const started = Date.now();
  const found = locateClients();
  const have = (['legacy', 'platform'] as const).filter((g) => found[g]).map((g) => `${g} ${found[g]!.version}`);
  console.log(`[clients] ${have.length ? have.join(', ') : 'none'} (${((Date.now() - started) / 1000).toFixed(1)} s to locate)`);
  for (const reason of found.reasons) console.log(`[clients] ${reason}`);
  if (!found.legacy && !found.platform) {
    if (process.env.CI) throw new Error(`the real ultralytics clients are required under CI: ${found.reasons.join('; ')}`);
    console.log('[clients] skipping the client suite: no real ultralytics client here');
  }
  process.env.SIGHTLINE_CLIENTS_FOUND = JSON.stringify(found);
  process.env.SIGHTLINE_CLIENTS_STARTED = String(started);
}

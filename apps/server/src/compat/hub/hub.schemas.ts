import { z } from 'zod';
import { errors } from '../../platform/http/errors.js';
import { inspect } from '../../platform/http/input-guard.js';

/** Bodies of the legacy HUB protocol (hub-protocol.md §5.5–5.8) and their decoding. */

export const idParams = z.object({ id: z.string().max(40) });
export const successSchema = z.object({ success: z.literal(true) });
export const heartbeatBody = z.object({ agent: z.string().max(200).nullish(), agentId: z.string().max(100).nullish() }).passthrough();
export const heartbeatResponse = z.object({ success: z.literal(true), data: z.object({ agentId: z.string() }) });

/** `{"<epoch>": "<JSON-encoded object>"}`; plain objects are accepted too (a client that forgot to encode). */
export const metricsBody = z.object({
  type: z.literal('metrics'),
  metrics: z.record(z.string().regex(/^\d{1,6}$/, 'epoch keys are 0-based integers'), z.union([z.string().max(256 * 1024), z.record(z.string(), z.unknown())])),
});

/** The double-encoded metrics as per-epoch objects; a 400 names the first key that is not an encoded object. */
export function decodeEpochMetrics(raw: z.infer<typeof metricsBody>['metrics']) {
  const entries: Array<{ epoch: number; metrics: Record<string, unknown> }> = [];
  for (const [key, value] of Object.entries(raw)) {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        throw errors.validation(`metrics.${key}: not a JSON-encoded object`);
      }
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw errors.validation(`metrics.${key}: not a JSON-encoded object`);
    // The encoded JSON escaped the input guard as a string: the same NUL and depth limits apply to it.
    if (typeof value === 'string') inspect(parsed, `body.metrics.${key}`);
    entries.push({ epoch: Number(key), metrics: parsed as Record<string, unknown> });
  }
  if (!entries.length) throw errors.validation('metrics: no epoch given');
  return entries;
}

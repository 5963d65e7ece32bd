import type { z } from 'zod';

/**
 * The one rule for names (ADR 0023): a name of a dataset, project, model, team, user, API key,
 * agent or GPU type never carries control characters — C0 (tab, newline, ESC…), DEL and C1 (CSI
 * starts terminal escapes) — nor the bidirectional overrides that make text read in another
 * order than it is stored. Names are printed in terminals (the ultralytics client, agent logs,
 * server logs) and in lists; such characters there rewrite what the reader sees.
 */
// eslint-disable-next-line no-control-regex -- the point of the rule: these are the characters refused
export const SAFE_NAME = /^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/u;
export const UNSAFE_NAME_MESSAGE = 'Names cannot contain control characters or terminal escapes';

/** The name rule on a string schema: `safeName(z.string().trim().max(N))` (stays a ZodString). */
export const safeName = (schema: z.ZodString): z.ZodString => schema.regex(SAFE_NAME, UNSAFE_NAME_MESSAGE);

/** True when `value` passes the name rule (for names that do not come through a request schema). */
export const isSafeName = (value: string): boolean => SAFE_NAME.test(value);

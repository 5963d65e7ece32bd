import type { z } from 'zod';

/** Validates with a contracts schema and returns the first message per field (empty when valid). */
export function fieldErrors<S extends z.ZodType>(schema: S, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= issue.message;
  }
  return errors;
}

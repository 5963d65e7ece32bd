import { z } from 'zod';
/** Every success body is `{ data: ... }` (hub-sdk's envelope). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });

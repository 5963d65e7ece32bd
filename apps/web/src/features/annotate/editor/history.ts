/** Undo/redo over immutable snapshots of one image's labels (Ctrl+Z / Ctrl+Shift+Z). */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}
export const HISTORY_LIMIT = 200;

export const createHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** A new state: the old one can be undone, the redo branch is dropped. */
export function pushHistory<T>(h: History<T>, next: T): History<T> {
  if (Object.is(next, h.present)) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}

/** The present replaced without an undo step (e.g. the server's version taken after a conflict). */
export const resetHistory = <T>(present: T): History<T> => createHistory(present);

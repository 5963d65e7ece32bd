/**
 * Per-app extension points (ADR 0032): a module that others extend (agents: job kinds; training:
 * run-change listeners; models: upload listeners) declares a typed slot, and the extending module
 * fills it from its `register(app, ctx)`. Values live on `ctx.registry`, so two apps in one process
 * (tests, the scale-out suite) never share them, and nothing is filled at import time.
 */
export interface Slot<T> {
  readonly name: string;
  readonly create: () => T;
}

/** Declares a slot; `create` makes its empty value the first time an app uses it. */
export const slot = <T>(name: string, create: () => T): Slot<T> => ({ name, create });

export class Registry {
  private readonly values = new Map<Slot<unknown>, unknown>();

  /** The slot's value in this app (made on first use). */
  of<T>(s: Slot<T>): T {
    if (!this.values.has(s as Slot<unknown>)) this.values.set(s as Slot<unknown>, s.create());
    return this.values.get(s as Slot<unknown>) as T;
  }
}

/** A list of listeners in a slot: adds `fn` once. */
export function addListener<F>(list: F[], fn: F) {
  if (!list.includes(fn)) list.push(fn);
}

import { LOG_LEVELS, type LogLevel } from '@sightline/contracts';

/** Levels of spec §9: debug < info < warn < error < disabled. */
const rank = (level: LogLevel) => LOG_LEVELS.indexOf(level);

function initialLevel(): LogLevel {
  const fromStorage = typeof localStorage !== 'undefined' ? localStorage.getItem('sightline.logLevel') : null;
  if (fromStorage && (LOG_LEVELS as readonly string[]).includes(fromStorage)) return fromStorage as LogLevel;
  return import.meta.env?.DEV ? 'debug' : 'warn';
}

let current: LogLevel = initialLevel();

export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export function setLogLevel(level: LogLevel): void {
  current = level;
}
export function getLogLevel(): LogLevel {
  return current;
}

/** A logger whose lines start with a scope tag; lines below the current level are dropped. */
export function createLogger(scope: string): Logger {
  const emit = (level: Exclude<LogLevel, 'disabled'>, args: unknown[]) => {
    if (current === 'disabled' || rank(level) < rank(current)) return;
    console[level](`[${scope}]`, ...args);
  };
  return {
    debug: (...args) => emit('debug', args),
    info: (...args) => emit('info', args),
    warn: (...args) => emit('warn', args),
    error: (...args) => emit('error', args),
  };
}

export const logger = createLogger('app');

import type { AuditEntry } from '@sightline/contracts';
import type { AuditRow } from './audit.repository.js';

export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    seq: row.seq,
    time: row.createdAt.toISOString(),
    action: row.action,
    outcome: row.outcome,
    actor: { id: row.actorId, label: row.actorLabel },
    target: { type: row.targetType, id: row.targetId, label: row.targetLabel },
    userId: row.userId,
    ip: row.ip,
    userAgent: row.userAgent,
    meta: row.meta,
  };
}

const CSV_COLUMNS = ['time', 'action', 'outcome', 'actor_id', 'actor', 'target_type', 'target_id', 'target', 'user_id', 'ip', 'user_agent', 'meta'] as const;

/** RFC 4180 field; a leading = + - @ is neutralised so a spreadsheet does not run it as a formula. */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function auditCsvHeader() {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function auditCsvLine(e: AuditEntry) {
  return (
    [e.time, e.action, e.outcome, e.actor.id, e.actor.label, e.target.type, e.target.id, e.target.label, e.userId, e.ip, e.userAgent, e.meta]
      .map(csvField)
      .join(',') + '\r\n'
  );
}

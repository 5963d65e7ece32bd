import type { AppContext } from '../../context.js';
import { presentUser } from '../users/users.presenter.js';
import { adminRepository } from './admin.repository.js';

export async function listUsers(ctx: AppContext) {
  return (await adminRepository.recentUsers(ctx.db, 500)).map((u) => presentUser(u));
}

/** With no SMTP the outbox is where mails can be read; admins see a warning in the app. */
export async function outbox(ctx: AppContext) {
  const rows = await adminRepository.recentMails(ctx.db, 200);
  return {
    mailEnabled: ctx.mailer.enabled,
    mails: rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, created: m.createdAt.toISOString(), sent: m.sentAt?.toISOString() ?? null, error: m.error })),
  };
}

import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import { outboxRepository } from './outbox.repository.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** true when mail really leaves the instance (SMTP configured) */
  readonly enabled: boolean;
  send(mail: Mail): Promise<void>;
}

/**
 * Every mail is written to the outbox first (admins can read it; with no SMTP it is the only
 * copy). With SMTP configured it is then sent and marked; a send failure is recorded, not thrown,
 * so a flaky relay never fails a sign-up.
 */
export function createMailer(opts: { db: Db; smtpUrl: string | null; from: string; log: FastifyBaseLogger }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  return {
    enabled: transport !== null,
    async send(mail) {
      const id = newId();
      await outboxRepository.insert(opts.db, { id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
      if (!transport) {
        opts.log.info({ mailId: id, to: mail.to, subject: mail.subject }, 'mail not sent (no SMTP_URL); stored in outbox');
        return;
      }
      try {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        await outboxRepository.update(opts.db, id, { sentAt: new Date() });
      } catch (err) {
        opts.log.error({ mailId: id, err: (err as Error).message }, 'mail send failed');
        await outboxRepository.update(opts.db, id, { error: (err as Error).message });
      }
    },
  };
}

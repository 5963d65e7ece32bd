/**
 * Local SMTP sink for the e2e run: receives the server's real mail over SMTP and lets tests read
 * it over HTTP (GET /mails?to=<address>). Started by playwright.config.ts.
 */
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.SINK_SMTP_PORT ?? 2525);
const HTTP_PORT = Number(process.env.SINK_HTTP_PORT ?? 2526);
const mails: Array<{ to: string[]; text: string; received: string }> = [];

const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      mails.push({
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        text: decodeQp(Buffer.concat(chunks).toString('utf8')),
        received: new Date().toISOString(),
      });
      callback();
    });
  },
});
smtp.listen(SMTP_PORT, '127.0.0.1');

http
  .createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/health') return res.end('ok');
    const to = url.searchParams.get('to')?.toLowerCase();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(to ? mails.filter((m) => m.to.includes(to)) : mails));
  })
  .listen(HTTP_PORT, '127.0.0.1');

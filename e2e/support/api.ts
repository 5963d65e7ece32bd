import { expect, type APIRequestContext } from '@playwright/test';

export const SINK_HTTP = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1001}`;

let n = 0;
/** The Playwright worker's index in every tag: two workers (E2E_WORKERS=2) never make the same address in the same millisecond. */
const worker = process.env.TEST_PARALLEL_INDEX ?? '0';
export function uniqueUser(prefix = 'e2e') {
  n += 1;
  const tag = `${Date.now().toString(36)}w${worker}n${n}`;
  return { email: `${prefix}-${tag}@example.com`, password: 'e2e-password-1', username: `${prefix}_${tag}`, firstName: 'Eve' };
}

/** The newest mail to an address from the SMTP sink, waiting for it to arrive. */
export async function latestMail(request: APIRequestContext, to: string, match?: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`${SINK_HTTP}/mails?to=${encodeURIComponent(to)}`)).json()) as Array<{ text: string }>;
      text = mails.filter((m) => !match || match.test(m.text)).at(-1)?.text ?? '';
      return text.length > 0;
    })
    .toBe(true);
  return text;
}

export function linkFrom(mailText: string, pattern: RegExp) {
  const m = pattern.exec(mailText);
  if (!m) throw new Error(`no link ${pattern} in mail`);
  return m[0];
}

/** Signs up through the API and follows the verification link from the mail sink. */
export async function createVerifiedUser(request: APIRequestContext, prefix = 'e2e') {
  const user = uniqueUser(prefix);
  const res = await request.post('/v1/auth/signup', { data: user });
  expect(res.status()).toBe(201);
  const mail = await latestMail(request, user.email, /verify/);
  const link = linkFrom(mail, /http:\/\/\S+\/v1\/auth\/verify\?token=[\w%-]+/);
  const follow = await request.get(link, { maxRedirects: 0 });
  expect(follow.status()).toBe(302);
  return user;
}

/**
 * A local server that speaks the part of Stripe's API Sightline uses, in Stripe's wire format:
 * form-encoded bodies with bracket keys, `Authorization: Bearer <secret key>`, Stripe's JSON objects
 * and error shapes, `Idempotency-Key` replays. Completing a checkout (through its test-control
 * endpoint or the little hosted checkout page a browser can click) POSTs the matching webhook
 * events to the hub, signed with the real `Stripe-Signature` scheme (t=…,v1=HMAC-SHA256 of
 * `${t}.${payload}`). Used by the server tests and, through e2e/support/fake-stripe.ts, by e2e.
 */
import crypto from 'node:crypto';
import http from 'node:http';

type Obj = Record<string, unknown>;
export interface Delivery {
  eventId: string;
  type: string;
  status: number;
  body: string;
}

export interface FakeStripeOptions {
  port?: number;
  host?: string;
  secretKey?: string;
  webhookSecret?: string;
  /** Where events are POSTed (the hub's /v1/billing/stripe/webhook); can be set later. */
  webhookUrl?: string;
}

export const FAKE_PRICES = {
  proMonthly: { id: 'price_pro_monthly', unit_amount: 2900, interval: 'month' },
  proYearly: { id: 'price_pro_yearly', unit_amount: 29000, interval: 'year' },
} as const;

const rid = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowS = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `a[b][0][c]=v` → { a: { b: [ { c: 'v' } ] } }. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let cur: Obj = out;
    path.forEach((seg, i) => {
      if (i === path.length - 1) {
        cur[seg] = value;
        return;
      }
      if (cur[seg] === undefined) cur[seg] = /^\d+$/.test(path[i + 1]!) ? [] : {};
      cur = cur[seg] as Obj;
    });
  }
  return out;
}

export function signStripePayload(payload: string, secret: string, timestamp = nowS()): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

class StripeError extends Error {
  constructor(
    public status: number,
    public body: Obj,
  ) {
    super(String(body.message));
  }
}
const missing = (what: string, id: string, param?: string) =>
  new StripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, ...(param ? { param } : {}) });
const invalid = (message: string, param?: string) => new StripeError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });

export class FakeStripe {
  readonly secretKey: string;
  readonly webhookSecret: string;
  webhookUrl: string | null;
  url = '';
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices: Obj[] = [];
  readonly events = new Map<string, Obj>();
  readonly deliveries: Delivery[] = [];
  readonly portalSessions = new Map<string, Obj>();
  /** Every API request as received (method, path, form-decoded body), for assertions. */
  readonly requests: Array<{ method: string; path: string; body: Obj; idempotencyKey: string | null }> = [];
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private server: http.Server | null = null;

  constructor(opts: FakeStripeOptions = {}) {
    this.secretKey = opts.secretKey ?? 'sk_test_fake_sightline';
    this.webhookSecret = opts.webhookSecret ?? 'whsec_fake_sightline';
    this.webhookUrl = opts.webhookUrl ?? null;
  }

  async start(port = 0, host = '127.0.0.1') {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const addr = this.server.address() as { port: number };
    this.url = `http://${host}:${addr.port}`;
    return this;
  }

  async close() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  // ---- test control (also reachable over HTTP under /_control for e2e)

  /** Pays a checkout session: creates what Stripe would, then delivers the webhooks in order. */
  async completeCheckout(sessionId: string): Promise<Delivery[]> {
    const s = this.sessions.get(sessionId);
    if (!s) throw missing('checkout.session', sessionId);
    if (s.status === 'complete') return [];
    const customer = s.customer as string;
    const events: Obj[] = [];
    if (s.mode === 'subscription') {
      const price = this.price((s.line_items as Obj[])[0]!.price as string);
      const start = nowS();
      const end = start + (price.interval === 'year' ? 365 : 30) * 86400;
      const sub: Obj = {
        id: rid('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        created: start,
        start_date: start,
        livemode: false,
        metadata: (s.subscription_data as Obj | undefined)?.metadata ?? {},
        items: {
          object: 'list',
          has_more: false,
          data: [
            {
              id: rid('si'),
              object: 'subscription_item',
              quantity: 1,
              current_period_start: start,
              current_period_end: end,
              price: {
                id: price.id,
                object: 'price',
                currency: 'usd',
                unit_amount: price.unit_amount,
                recurring: { interval: price.interval, interval_count: 1 },
              },
            },
          ],
        },
      };
      this.subscriptions.set(sub.id as string, sub);
      Object.assign(s, { status: 'complete', payment_status: 'paid', subscription: sub.id, amount_total: price.unit_amount });
      const invoice = this.invoice(customer, price.unit_amount, `Sightline Pro (${price.interval}ly)`, sub.id as string);
      events.push(this.event('customer.subscription.created', sub), this.event('invoice.paid', invoice), this.event('checkout.session.completed', s));
    } else {
      const items = s.line_items as Obj[];
      const total = items.reduce((a, li) => a + Number((li.price_data as Obj).unit_amount) * Number(li.quantity ?? 1), 0);
      Object.assign(s, { status: 'complete', payment_status: 'paid', amount_total: total, amount_subtotal: total, payment_intent: rid('pi') });
      events.push(this.event('checkout.session.completed', s));
      if ((s.invoice_creation as Obj | undefined)?.enabled === 'true') {
        const inv = this.invoice(customer, total, 'Sightline wallet top-up', null);
        s.invoice = inv.id;
        events.push(this.event('invoice.paid', inv));
      }
    }
    return this.deliver(events);
  }

  /** Moves a subscription to a status (past_due, unpaid, active, …) and sends customer.subscription.updated. */
  async setSubscriptionStatus(id: string, status: string) {
    const sub = this.sub(id);
    sub.status = status;
    return this.deliver([this.event('customer.subscription.updated', sub)]);
  }

  /** The period ends: a subscription set to cancel at period end is deleted (customer.subscription.deleted). */
  async endPeriod(id: string) {
    const sub = this.sub(id);
    if (sub.cancel_at_period_end) {
      Object.assign(sub, { status: 'canceled', canceled_at: nowS(), ended_at: nowS() });
      this.subscriptions.delete(id);
      return this.deliver([this.event('customer.subscription.deleted', sub)]);
    }
    const item = (sub.items as { data: Obj[] }).data[0]!;
    const len = Number(item.current_period_end) - Number(item.current_period_start);
    item.current_period_start = item.current_period_end;
    item.current_period_end = Number(item.current_period_end) + len;
    const inv = this.invoice(sub.customer as string, Number((item.price as Obj).unit_amount), 'Sightline Pro renewal', id);
    return this.deliver([this.event('invoice.paid', inv), this.event('customer.subscription.updated', sub)]);
  }

  /** Sends an event that was already delivered once more (Stripe retries and replays). */
  async resend(eventId: string) {
    const e = this.events.get(eventId);
    if (!e) throw missing('event', eventId);
    return this.deliver([e]);
  }

  /** Sends any event object, for cases like a customer the hub never saw. */
  async send(type: string, object: Obj) {
    return this.deliver([this.event(type, object)]);
  }

  lastSession() {
    return [...this.sessions.values()].at(-1) ?? null;
  }

  // ---- internals

  private price(id: string) {
    const p = Object.values(FAKE_PRICES).find((x) => x.id === id);
    if (!p) throw missing('price', id, 'line_items[0][price]');
    return p;
  }

  private sub(id: string) {
    const s = this.subscriptions.get(id);
    if (!s) throw missing('subscription', id);
    return s;
  }

  private invoice(customer: string, amount: number, description: string, subscription: string | null): Obj {
    const id = rid('in');
    const inv: Obj = {
      id,
      object: 'invoice',
      customer,
      number: `SL-${String(this.invoices.length + 1).padStart(4, '0')}`,
      status: 'paid',
      amount_due: amount,
      amount_paid: amount,
      total: amount,
      currency: 'usd',
      description,
      created: nowS(),
      hosted_invoice_url: `${this.url}/invoices/${id}`,
      invoice_pdf: `${this.url}/invoices/${id}/pdf`,
      parent: subscription ? { type: 'subscription_details', subscription_details: { subscription } } : null,
      lines: { object: 'list', data: [{ id: rid('il'), object: 'line_item', amount, description }] },
    };
    this.invoices.unshift(inv);
    return inv;
  }

  private event(type: string, object: Obj): Obj {
    const e = {
      id: rid('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowS(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    };
    this.events.set(e.id, e);
    return e;
  }

  private async deliver(events: Obj[]): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const e of events) {
      if (!this.webhookUrl) throw new Error('fake stripe: no webhook url');
      const payload = JSON.stringify(e, null, 2);
      const res = await fetch(this.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, this.webhookSecret) },
        body: payload,
      });
      const d = { eventId: e.id as string, type: e.type as string, status: res.status, body: await res.text() };
      this.deliveries.push(d);
      out.push(d);
    }
    return out;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'request-id': rid('req') });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    try {
      if (url.pathname.startsWith('/_control/')) return send(200, await this.control(req.method!, url.pathname, raw ? JSON.parse(raw) : {}));
      if (!url.pathname.startsWith('/v1/')) return this.page(req.method!, url.pathname, res);
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${this.secretKey}`) {
        const shown = auth.replace(/^Bearer\s+/, '').slice(0, 12);
        return send(401, { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${shown}***` } });
      }
      const key = req.method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
      if (key && this.idempotent.has(key)) {
        const hit = this.idempotent.get(key)!;
        return send(hit.status, hit.body);
      }
      const body = req.method === 'GET' || req.method === 'DELETE' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
      this.requests.push({ method: req.method!, path: url.pathname, body, idempotencyKey: key });
      const result = this.api(req.method!, url.pathname, body);
      if (key) this.idempotent.set(key, { status: 200, body: JSON.stringify(result) });
      return send(200, result);
    } catch (err) {
      if (err instanceof StripeError) return send(err.status, { error: err.body });
      return send(500, { error: { type: 'api_error', message: (err as Error).message } });
    }
  }

  private api(method: string, path: string, body: Obj): unknown {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const c = {
        id: rid('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        created: nowS(),
        livemode: false,
      };
      this.customers.set(c.id, c);
      return c;
    }
    if (method === 'GET' && (m = /^\/v1\/customers\/([\w]+)$/.exec(path)))
      return (
        this.customers.get(m[1]!) ??
        (() => {
          throw missing('customer', m![1]!);
        })()
      );
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(body);
    if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path)))
      return (
        this.sessions.get(m[1]!) ??
        (() => {
          throw missing('checkout.session', m![1]!);
        })()
      );
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = String(body.customer ?? '');
      if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
      const p = { id: rid('bps'), object: 'billing_portal.session', customer, return_url: body.return_url ?? null, created: nowS(), livemode: false, url: '' };
      p.url = `${this.url}/portal/${p.id}`;
      this.portalSessions.set(p.id, p);
      return p;
    }
    if ((m = /^\/v1\/subscriptions\/([\w]+)$/.exec(path))) {
      const sub = this.sub(m[1]!);
      if (method === 'GET') return sub;
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
        void this.deliver([this.event('customer.subscription.updated', sub)]).catch(() => undefined);
        return sub;
      }
      if (method === 'DELETE') {
        Object.assign(sub, { status: 'canceled', canceled_at: nowS() });
        this.subscriptions.delete(m[1]!);
        void this.deliver([this.event('customer.subscription.deleted', sub)]).catch(() => undefined);
        return sub;
      }
    }
    if (method === 'GET' && path === '/v1/invoices') {
      let list = this.invoices.filter((i) => !body.customer || i.customer === body.customer);
      if (body.starting_after) {
        const at = list.findIndex((i) => i.id === body.starting_after);
        if (at < 0) throw missing('invoice', String(body.starting_after), 'starting_after');
        list = list.slice(at + 1);
      }
      const limit = Math.min(100, Number(body.limit ?? 10));
      return { object: 'list', url: '/v1/invoices', has_more: list.length > limit, data: list.slice(0, limit) };
    }
    throw new StripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  private createSession(body: Obj) {
    const mode = body.mode;
    if (mode !== 'subscription' && mode !== 'payment') throw invalid('Invalid mode: must be one of payment, setup, or subscription', 'mode');
    const customer = String(body.customer ?? '');
    if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
    const items = (body.line_items as Obj[] | undefined) ?? [];
    if (!items.length) throw invalid('line_items is required', 'line_items');
    if (mode === 'subscription') this.price(String(items[0]!.price));
    if (mode === 'payment') {
      const amount = Number((items[0]!.price_data as Obj | undefined)?.unit_amount);
      if (!Number.isInteger(amount) || amount < 50) throw invalid('Amount must be at least 50 cents', 'line_items[0][price_data][unit_amount]');
    }
    if (!body.success_url) throw invalid('Missing required param: success_url.', 'success_url');
    const s: Obj = {
      id: rid('cs_test'),
      object: 'checkout.session',
      mode,
      customer,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      line_items: items,
      subscription_data: body.subscription_data ?? null,
      invoice_creation: body.invoice_creation ?? null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: null,
      currency: 'usd',
      payment_intent: null,
      subscription: null,
      created: nowS(),
      livemode: false,
      url: '',
    };
    s.url = `${this.url}/checkout/${s.id}`;
    this.sessions.set(s.id as string, s);
    return s;
  }

  private async control(method: string, path: string, body: Obj): Promise<unknown> {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/_control/webhook-url') {
      this.webhookUrl = String(body.url);
      return { ok: true };
    }
    if (method === 'GET' && path === '/_control/state')
      return {
        sessions: [...this.sessions.values()],
        subscriptions: [...this.subscriptions.values()],
        deliveries: this.deliveries,
        customers: [...this.customers.values()],
      };
    if (method === 'POST' && (m = /^\/_control\/checkout\/([\w]+)\/complete$/.exec(path))) return this.completeCheckout(m[1]!);
    if (method === 'POST' && (m = /^\/_control\/subscriptions\/([\w]+)\/status$/.exec(path))) return this.setSubscriptionStatus(m[1]!, String(body.status));
    if (method === 'POST' && (m = /^\/_control\/subscriptions\/([\w]+)\/end-period$/.exec(path))) return this.endPeriod(m[1]!);
    if (method === 'POST' && (m = /^\/_control\/events\/([\w]+)\/resend$/.exec(path))) return this.resend(m[1]!);
    throw new StripeError(404, { type: 'invalid_request_error', message: `Unknown control ${method} ${path}` });
  }

  /** Hosted pages a browser reaches: Checkout (a Pay button) and the Customer Portal. */
  private async page(method: string, path: string, res: http.ServerResponse) {
    const html = (title: string, inner: string) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:480px;margin:40px auto">${inner}</body></html>`;
    let m: RegExpExecArray | null;
    if ((m = /^\/checkout\/([\w]+)(\/pay)?$/.exec(path))) {
      const s = this.sessions.get(m[1]!);
      if (!s) throw missing('checkout.session', m[1]!);
      if (method === 'POST' && m[2]) {
        await this.completeCheckout(s.id as string);
        res.writeHead(303, { location: String(s.success_url) });
        return res.end();
      }
      const what = s.mode === 'subscription' ? 'Sightline Pro' : 'Wallet top-up';
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        html(
          'Fake Stripe Checkout',
          `<h1>Fake Stripe Checkout</h1><p>${what}</p><form method="post" action="/checkout/${s.id}/pay"><button type="submit">Pay</button></form>`,
        ),
      );
    }
    if ((m = /^\/portal\/([\w]+)$/.exec(path))) {
      const p = this.portalSessions.get(m[1]!);
      if (!p) throw missing('billing_portal.session', m[1]!);
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        html('Fake Stripe Portal', `<h1>Fake Stripe Customer Portal</h1><p>${String(p.customer)}</p><a href="${String(p.return_url)}">Return to Sightline</a>`),
      );
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

export async function startFakeStripe(opts: FakeStripeOptions = {}) {
  return new FakeStripe(opts).start(opts.port ?? 0, opts.host ?? '127.0.0.1');
}

/** Server env that points Sightline at this fake. */
export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_BASE: fake.url,
    STRIPE_PRICE_PRO_MONTHLY: FAKE_PRICES.proMonthly.id,
    STRIPE_PRICE_PRO_YEARLY: FAKE_PRICES.proYearly.id,
  };
}

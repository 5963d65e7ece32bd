import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { Config } from '../../config.js';

/** The SDK loads on the first Stripe call: an install without billing keeps its ~20 MB out of memory. */
const load = () => createRequire(import.meta.url)('stripe') as typeof Stripe;

/**
 * The official Stripe client. STRIPE_API_BASE (tests, air-gapped installs) points it at another
 * server speaking Stripe's API: its host, port and protocol become the client's options.
 */
export function createStripe(config: NonNullable<Config['stripe']>): Stripe {
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 1, timeout: 20_000, telemetry: false, appInfo: { name: 'Sightline' } };
  if (config.apiBase) {
    const url = new URL(config.apiBase);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname;
    options.port = url.port ? Number(url.port) : protocol === 'http' ? 80 : 443;
    options.protocol = protocol;
  }
  const StripeClient = load();
  return new StripeClient(config.secretKey, options);
}

const clients = new WeakMap<NonNullable<Config['stripe']>, Stripe>();
/** One client per configuration (the app's config object lives as long as the app). */
export function stripeFor(config: Config): Stripe | null {
  if (!config.stripe) return null;
  let c = clients.get(config.stripe);
  if (!c) {
    c = createStripe(config.stripe);
    clients.set(config.stripe, c);
  }
  return c;
}

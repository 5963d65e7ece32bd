/**
 * The e2e run's global set-up (after playwright.config.ts's web servers are up): the spec servers'
 * template (server-template.ts), handed to the workers as E2E_SERVER_TEMPLATE and removed at the end.
 */
import fs from 'node:fs';
import { makeServerTemplate } from './server-template';

export default async function globalSetup() {
  // E2E_PORT + 20: a port no spec uses (they take E2E_PORT + 2 … + 14 and + 1000 … + 1002).
  const dir = await makeServerTemplate(Number(process.env.E2E_PORT ?? 3100) + 20);
  process.env.E2E_SERVER_TEMPLATE = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

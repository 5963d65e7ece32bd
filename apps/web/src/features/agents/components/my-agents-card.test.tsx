import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { MyAgentsCard } from './my-agents-card';

const agent = (over: Partial<Agent>): Agent => ({
  id: 'a1',
  name: 'box',
  shared: false,
  ownerUserId: 'u1',
  tokenPrefix: 'sla_abcdef',
  online: true,
  hostname: 'box',
  gpu: null,
  gpuType: null,
  cpu: 'AMD EPYC × 2',
  ultralyticsVersion: '8.3.166',
  agentVersion: '0.1.0',
  capabilities: { device: 'cpu', platformProtocol: false, train: false, export: true, reason: 'Exports only: ultralytics 8.3.166 cannot read ul:// datasets' },
  lastHeartbeat: new Date().toISOString(),
  created: '2026-01-01T00:00:00Z',
  revoked: null,
  currentJob: null,
  ...over,
});

describe('My agents (ADR 0021)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each agent\u2019s ultralytics and what it can run, and why not (exports only; nothing at all)', async () => {
    const api = fakeApi({
      'GET /v1/agents': () => [
        agent({}),
        agent({
          id: 'a2',
          name: 'empty',
          ultralyticsVersion: null,
          capabilities: { device: 'cpu', platformProtocol: false, train: false, export: false, reason: 'Runs nothing: no ultralytics was found on this host' },
        }),
      ],
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/', element: <MyAgentsCard /> }], { user: makeUser() });
    const rows = await screen.findAllByTestId('agent-capability');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Exports only: ultralytics 8.3.166 cannot read ul:// datasets');
    expect(rows[1]).toHaveTextContent('Runs nothing: no ultralytics was found on this host');
    expect(within(screen.getByTestId('my-agents')).getByText(/^no GPU · ultralytics 8\.3\.166 · /)).toBeInTheDocument();
  });
});

import { PLATFORM_PROTOCOL_MIN_VERSION, type AgentCapabilities } from '@sightline/contracts';
import type { AgentRow, GpuTypeRow } from './agents.repository.js';

/**
 * What an agent can run (ADR 0021), from what it reported at register: its ultralytics version,
 * the agent's probe of the Platform protocol, its GPUs (none: a CPU agent) and the device type it
 * matched. Pure: the claim, the lists and the GPU-type availability all read it from here.
 */

/** `8.4.115` ≤ `8.4.120`; suffixes (`.dev0`, `+cu124`) are ignored. */
export function versionAtLeast(version: string | null | undefined, min: string): boolean {
  if (!version) return false;
  const parse = (v: string) =>
    v
      .split(/[^\d.]/)[0]!
      .split('.')
      .map((n) => Number(n) || 0);
  const a = parse(version);
  const b = parse(min);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/**
 * Reads `ul://` data over the Platform protocol: the agent's probe says so when it could probe
 * (this repository's composite 8.4.41-platform client passes it by its code, not its number);
 * otherwise the version does (ultralytics ≥ 8.4.115).
 */
export function speaksPlatform(agent: Pick<AgentRow, 'platformProtocol' | 'ultralyticsVersion'>): boolean {
  if (agent.platformProtocol !== null && agent.platformProtocol !== undefined) return agent.platformProtocol;
  return versionAtLeast(agent.ultralyticsVersion, PLATFORM_PROTOCOL_MIN_VERSION);
}

/** Matches a reported host to an enabled device type: GPUs by name (longest match first), a host without one to a CPU type. */
export function matchDeviceType(types: GpuTypeRow[], host: { gpuName: string | null; cpu: string | null }): string | null {
  const enabled = types.filter((t) => t.enabled);
  if (host.gpuName) {
    const name = host.gpuName.toLowerCase();
    // Longest pattern first: "A100 80GB" wins over "A100".
    return enabled.filter((t) => t.device === 'gpu' && name.includes(t.match.toLowerCase())).sort((a, b) => b.match.length - a.match.length)[0]?.id ?? null;
  }
  const cpu = (host.cpu ?? '').toLowerCase();
  const cpuTypes = enabled.filter((t) => t.device === 'cpu' && (t.match === '*' || cpu.includes(t.match.toLowerCase())));
  return cpuTypes.sort((a, b) => (b.match === '*' ? -1 : b.match.length) - (a.match === '*' ? -1 : a.match.length))[0]?.id ?? null;
}

export function capabilitiesOf(agent: AgentRow): AgentCapabilities {
  const device = agent.gpuName ? 'gpu' : 'cpu';
  const platformProtocol = speaksPlatform(agent);
  if (!agent.ultralyticsVersion) {
    return {
      device,
      platformProtocol: false,
      train: false,
      export: false,
      reason: agent.registeredAt
        ? `Runs nothing: no ultralytics was found on this host. Install ultralytics >= ${PLATFORM_PROTOCOL_MIN_VERSION} where the agent runs (or point --yolo at its yolo) and restart the agent`
        : 'Runs nothing yet: the agent has not registered (start it with its token)',
    };
  }
  let reason: string | null = null;
  if (!platformProtocol) {
    reason = `Exports only: ultralytics ${agent.ultralyticsVersion} cannot read ul:// datasets, and cloud training needs the Platform protocol (ultralytics >= ${PLATFORM_PROTOCOL_MIN_VERSION})`;
  } else if (agent.ownerUserId !== null) {
    reason = 'Exports only: a private agent runs its owner\u2019s exports; cloud training runs on the shared pool';
  } else if (!agent.gpuTypeId) {
    reason =
      device === 'gpu'
        ? `Exports only: no enabled device type matches the GPU "${agent.gpuName}" (an admin adds one under Admin \u2192 Agents)`
        : 'Exports only: this host has no GPU, and no enabled CPU device type matches it (an admin can enable CPU training under Admin \u2192 Agents)';
  }
  return { device, platformProtocol, train: reason === null, export: true, reason };
}

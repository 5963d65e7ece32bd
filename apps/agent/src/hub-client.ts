import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ClaimedJob } from '@sightline/contracts';

export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The agent's side of the /v1/agents protocol: JSON in, `{data}` out, the token in x-agent-token. */
export class HubClient {
  constructor(
    readonly hub: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown, opts: { signal?: AbortSignal } = {}): Promise<T> {
    const res = await fetch(`${this.hub}${path}`, {
      method,
      headers: { 'x-agent-token': this.token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: opts.signal,
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as { data?: T; error?: { message?: string } }) : {};
    if (!res.ok) throw new HubError(res.status, json.error?.message ?? `${method} ${path}: HTTP ${res.status}`);
    return json.data as T;
  }

  register(info: object) {
    return this.call<{
      agentId: string;
      name: string;
      heartbeatMs: number;
      leaseMs: number;
      gpuType: string | null;
      recovered: Array<{ id: string; status: string }>;
    }>('POST', '/v1/agents/register', info);
  }
  heartbeat(jobs: string[]) {
    return this.call<{ cancel: string[]; unknown: string[] }>('POST', '/v1/agents/heartbeat', { jobs });
  }
  claim(waitMs: number, signal?: AbortSignal) {
    return this.call<ClaimedJob | null>('POST', `/v1/agents/claim?waitMs=${waitMs}`, undefined, { signal });
  }
  start(jobId: string) {
    return this.call('POST', `/v1/agents/jobs/${jobId}/start`, {});
  }
  log(jobId: string, seq: number, content: string) {
    return this.call<{ cancel: boolean }>('POST', `/v1/agents/jobs/${jobId}/log`, { seq, content });
  }
  finish(jobId: string, body: { status: 'succeeded' | 'failed' | 'cancelled'; exitCode?: number | null; signal?: string | null; error?: string | null }) {
    return this.call('POST', `/v1/agents/jobs/${jobId}/finish`, body);
  }
  async download(url: string, dest: string) {
    const res = await fetch(url.startsWith('http') ? url : `${this.hub}${url}`, { headers: { 'x-agent-token': this.token } });
    if (!res.ok || !res.body) throw new HubError(res.status, `download ${url}: HTTP ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(dest));
  }
  async upload(jobId: string, file: string, name: string) {
    const size = fs.statSync(file).size;
    const res = await fetch(`${this.hub}/v1/agents/jobs/${jobId}/artifact?name=${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { 'x-agent-token': this.token, 'content-type': 'application/octet-stream', 'content-length': String(size) },
      body: Readable.toWeb(fs.createReadStream(file)) as never,
      duplex: 'half',
    } as RequestInit);
    if (!res.ok) throw new HubError(res.status, `upload: HTTP ${res.status} ${await res.text()}`);
  }
}

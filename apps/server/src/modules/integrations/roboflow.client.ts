import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ErrorCode } from '@sightline/contracts';
import { AppError } from '../../platform/http/errors.js';

/**
 * Roboflow's REST API as the importer needs it (`shared/reference/roboflow-api.md`): root, workspace,
 * project, version, export (202 "generating" then 200 with a short-lived link), image search and
 * image details. The key travels as `?api_key=` (what every known client sends) and is scrubbed from
 * every message this file produces; it is never sent to the download host.
 */

export class RoboflowError extends AppError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** worth running the job again later (rate limit, 5xx, network) */
    public readonly retryable = false,
  ) {
    super(status, code, message);
  }
}

/**
 * No answer at all (DNS, refused, reset, timeout): the server's own network is at fault, not the key
 * the user typed, and the message says so (the web shows it apart from the key field).
 */
function unreachable(what: string, cause: string): RoboflowError {
  return new RoboflowError(
    502,
    ErrorCode.RoboflowUnreachable,
    `The server cannot reach ${what} over the network (${cause}). This is the server's internet connection, not your API key, which was not checked. Try again once the server is online.`,
    true,
  );
}

/** The low-level reason of a failed fetch ("getaddrinfo ENOTFOUND api.roboflow.com"), not undici's bare "fetch failed". */
function networkCause(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'no answer in time';
  const cause = e?.cause;
  return (cause?.code && cause.message ? cause.message : cause?.code) ?? e?.message ?? String(err);
}

export interface RoboflowClientOptions {
  baseUrl: string;
  apiKey: string;
  /** paces retries of 429/5xx; tests make it tiny */
  retryBaseMs?: number;
  retries?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface RfProject {
  id: string;
  type: string;
  name: string;
  created?: number;
  updated?: number;
  images?: number;
  versions?: number;
  public?: boolean;
  splits?: Partial<Record<'train' | 'valid' | 'test', number>>;
  classes?: Record<string, number>;
  multilabel?: boolean;
  icon?: { original?: string; thumb?: string; annotation?: string } | string | null;
}
export interface RfVersion {
  id: string;
  name?: string;
  created?: number;
  images?: number;
  splits?: Partial<Record<'train' | 'valid' | 'test', number>>;
  generating?: boolean;
  progress?: number;
  exports?: string[];
}
export interface RfImage {
  id: string;
  name?: string;
  split?: string;
  labels?: string[];
  annotation?: {
    width?: number;
    height?: number;
    boxes?: Array<{ label: string; x: number; y: number; width: number; height: number; points?: Array<{ x: number; y: number }> }>;
  };
  urls?: { original?: string; thumb?: string; annotation?: string };
}

export type ExportState = { state: 'generating'; progress: number } | { state: 'ready'; link: string; size: number | null };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes a key from any text: the literal key and any `api_key=` / `key=` query value. */
export function redactSecret(text: string, key: string | null | undefined): string {
  let out = text.replace(/([?&](?:api_key|key)=)[^&\s"']*/gi, '$1[redacted]');
  if (key && key.length >= 4) out = out.split(key).join('[redacted]');
  return out;
}

export class RoboflowClient {
  private readonly retryBaseMs: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly doFetch: typeof fetch;

  constructor(private readonly opts: RoboflowClientOptions) {
    this.retryBaseMs = opts.retryBaseMs ?? 1000;
    this.retries = opts.retries ?? 3;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.doFetch = opts.fetch ?? fetch;
  }

  /** `GET /`: validates the key and names the workspace it belongs to. */
  async root(): Promise<{ workspace: string }> {
    const body = await this.call<{ workspace?: string }>('GET', '/', { what: 'API key' });
    if (!body.workspace)
      throw new RoboflowError(400, ErrorCode.RoboflowInvalidKey, 'Roboflow did not name a workspace for this key; use the private API key of a workspace.');
    return { workspace: body.workspace };
  }

  async workspace(ws: string) {
    return this.call<{ workspace: { name?: string; url?: string; projects?: RfProject[] } }>('GET', `/${enc(ws)}`, { what: `Workspace "${ws}"` });
  }

  /** Versions are read at the top level (every client does), or inside `project` (as the docs draw it). */
  async project(ws: string, project: string): Promise<{ project: RfProject; versions: RfVersion[] }> {
    const body = await this.call<{ project: RfProject & { versions?: unknown }; versions?: RfVersion[] }>('GET', `/${enc(ws)}/${enc(project)}`, {
      what: `Project "${ws}/${project}"`,
    });
    if (!body.project) throw new RoboflowError(502, ErrorCode.RoboflowUnavailable, 'Roboflow answered without a project');
    const versions = Array.isArray(body.versions) ? body.versions : Array.isArray(body.project.versions) ? (body.project.versions as RfVersion[]) : [];
    return { project: body.project, versions };
  }

  async version(ws: string, project: string, version: number): Promise<RfVersion> {
    const body = await this.call<{ version: RfVersion }>('GET', `/${enc(ws)}/${enc(project)}/${version}`, { what: `Version ${version} of "${ws}/${project}"` });
    return body.version;
  }

  /** One look at the export: a GET both starts generating the zip and reports on it. */
  async exportState(ws: string, project: string, version: number, format: string): Promise<ExportState> {
    const { status, body } = await this.callWithStatus<{ progress?: number; export?: { link?: string; size?: number } }>(
      'GET',
      `/${enc(ws)}/${enc(project)}/${version}/${enc(format)}`,
      {
        what: `Version ${version} of "${ws}/${project}"`,
        query: { nocache: 'true' },
      },
    );
    if (status === 202 || !body.export?.link) return { state: 'generating', progress: Math.max(0, Math.min(1, Number(body.progress ?? 0))) };
    return { state: 'ready', link: body.export.link, size: typeof body.export.size === 'number' ? body.export.size : null };
  }

  async search(ws: string, project: string, limit: number): Promise<Array<{ id: string; name?: string; split?: string; labels?: string[] }>> {
    const body = await this.call<{ results?: Array<{ id: string; name?: string; split?: string; labels?: string[] }> }>(
      'POST',
      `/${enc(ws)}/${enc(project)}/search`,
      {
        what: `Project "${ws}/${project}"`,
        json: { offset: 0, limit, fields: ['id', 'name', 'split', 'labels'] },
      },
    );
    return (body.results ?? []).slice(0, limit);
  }

  async image(ws: string, project: string, id: string): Promise<RfImage> {
    return (await this.call<{ image: RfImage }>('GET', `/${enc(ws)}/${enc(project)}/images/${enc(id)}`, { what: `Image ${id}` })).image;
  }

  /** Bytes of a small image from Roboflow's image host (previews). No key is attached. */
  async imageBytes(url: string, maxBytes = 2 * 1024 * 1024): Promise<{ bytes: Buffer; type: string } | null> {
    const res = await this.doFetch(url, { signal: AbortSignal.timeout(this.timeoutMs) }).catch(() => null);
    if (!res || !res.ok) return null;
    const bytes = Buffer.from(await res.arrayBuffer());
    return bytes.length > maxBytes ? null : { bytes, type: res.headers.get('content-type') ?? 'image/jpeg' };
  }

  /**
   * Streams the export link to a file (redirects followed, no key sent). A missing content-length
   * is fine; a body shorter than the announced length is a truncated download.
   */
  async download(link: string, file: string, opts: { signal?: AbortSignal; onBytes?: (done: number, total: number) => void } = {}): Promise<number> {
    let res: Response;
    try {
      res = await this.doFetch(link, { redirect: 'follow', signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw unreachable("Roboflow's download host", this.scrub(networkCause(err)));
    }
    if (res.status === 403 || res.status === 404 || res.status === 410) {
      await res.body?.cancel().catch(() => undefined);
      throw new RoboflowError(410, ErrorCode.RoboflowLinkExpired, `The download link of the export has expired or no longer exists (HTTP ${res.status}).`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new RoboflowError(
        502,
        ErrorCode.RoboflowUnavailable,
        `Roboflow's download host answered HTTP ${res.status}.`,
        res.status >= 500 || res.status === 429,
      );
    }
    const total = Number(res.headers.get('content-length') ?? 0) || 0;
    let done = 0;
    let lastReport = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        done += chunk.length;
        const now = Date.now();
        if (now - lastReport > 250) {
          lastReport = now;
          opts.onBytes?.(done, total);
        }
        cb(null, chunk);
      },
    });
    try {
      // pipeline owns the error handling of all three streams: a cut-off body destroys the file stream
      // without a late write error escaping as an uncaught exception.
      await pipeline(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), counter, fs.createWriteStream(file));
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw new RoboflowError(502, ErrorCode.RoboflowBadArchive, `The download of the export was cut off after ${done} bytes; nothing was imported.`, true);
    }
    opts.onBytes?.(done, total);
    if (total && done !== total)
      throw new RoboflowError(502, ErrorCode.RoboflowBadArchive, `The export download is truncated (${done} of ${total} bytes); nothing was imported.`);
    return done;
  }

  private scrub(text: string) {
    return redactSecret(text, this.opts.apiKey);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, opts: { what: string; json?: unknown; query?: Record<string, string> }): Promise<T> {
    return (await this.callWithStatus<T>(method, path, opts)).body;
  }

  private async callWithStatus<T>(
    method: 'GET' | 'POST',
    path: string,
    opts: { what: string; json?: unknown; query?: Record<string, string> },
  ): Promise<{ status: number; body: T }> {
    const url = new URL(this.opts.baseUrl + path);
    url.searchParams.set('api_key', this.opts.apiKey);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.doFetch(url, {
          method,
          headers: opts.json !== undefined ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
          body: opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err) {
        if (attempt < this.retries) {
          await sleep(this.backoff(attempt, null));
          continue;
        }
        throw unreachable('Roboflow', this.scrub(networkCause(err)));
      }
      const text = await res.text().catch(() => '');
      if ((res.status === 429 || res.status >= 500) && attempt < this.retries) {
        await sleep(this.backoff(attempt, res.headers.get('retry-after')));
        continue;
      }
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      const problem = errorMessage(body);
      if (!res.ok || (res.status === 200 && problem && !(body as Record<string, unknown>)?.project && !(body as Record<string, unknown>)?.workspace)) {
        throw this.failure(res.status, problem ?? (text && body === null ? text.slice(0, 200) : null), opts.what);
      }
      if (body === null || typeof body !== 'object')
        throw new RoboflowError(502, ErrorCode.RoboflowUnavailable, `Roboflow answered ${opts.what} with something that is not JSON.`, true);
      return { status: res.status, body: body as T };
    }
  }

  private backoff(attempt: number, retryAfter: string | null) {
    const seconds = Number(retryAfter);
    if (retryAfter !== null && Number.isFinite(seconds)) return Math.min(seconds * 1000, 30 * this.retryBaseMs);
    return this.retryBaseMs * 2 ** attempt * (0.75 + Math.random() / 2);
  }

  private failure(status: number, detail: string | null, what: string): RoboflowError {
    const said = detail ? ` Roboflow said: ${this.scrub(detail)}` : '';
    if (status === 401) {
      if (this.opts.apiKey.startsWith('rf_'))
        return new RoboflowError(
          400,
          ErrorCode.RoboflowPublishableKey,
          'This is a publishable key (it starts with rf_), which only runs inference. Paste the private API key from Roboflow: Settings → API Keys → Private API Key.',
        );
      return new RoboflowError(400, ErrorCode.RoboflowInvalidKey, `Roboflow does not accept this API key (it does not exist or has been revoked).${said}`);
    }
    if (status === 403) return new RoboflowError(403, ErrorCode.RoboflowNotFound, `${what} is not accessible with this API key.${said}`);
    if (status === 404)
      return new RoboflowError(404, ErrorCode.RoboflowNotFound, `${what} was not found on Roboflow (or is private to another workspace).${said}`);
    if (status === 429)
      return new RoboflowError(429, ErrorCode.RoboflowRateLimited, 'Roboflow is rate limiting requests right now. Wait a minute and try again.', true);
    if (status === 402 || status === 423)
      return new RoboflowError(402, ErrorCode.RoboflowUnavailable, `Roboflow refused: the workspace is out of credits or paused.${said}`);
    if (status >= 500) return new RoboflowError(502, ErrorCode.RoboflowUnavailable, `Roboflow is unavailable (HTTP ${status}). Try again later.`, true);
    return new RoboflowError(400, ErrorCode.RoboflowUnavailable, `Roboflow refused the request for ${what} (HTTP ${status}).${said}`);
  }
}

const enc = encodeURIComponent;

/** The four error body shapes of the reference: nested object, flat string, code+message, none. */
function errorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const e = (body as { error?: unknown; message?: unknown }).error;
  if (typeof e === 'string') {
    const m = (body as { message?: unknown }).message;
    return typeof m === 'string' ? `${e}: ${m}` : e;
  }
  if (e && typeof e === 'object') {
    const m = (e as { message?: unknown }).message;
    return typeof m === 'string' ? m : 'error';
  }
  return null;
}

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, Transform, type Readable } from 'node:stream';

/**
 * A lenient receiver for the Platform client's checkpoint PUT, on the server's own port.
 *
 * Why: `ultralytics.utils.uploads.safe_upload` streams the file from a generator, so python-requests
 * sends `Content-Length: N` AND `Transfer-Encoding: chunked` with an un-chunked body (psf/requests#1648,
 * platform-protocol §4.6, seen in the trace). Node's HTTP parser rejects that request before any
 * handler runs (HPE_INVALID_TRANSFER_ENCODING → 400), and `insecureHTTPParser` de-chunks it and fails.
 *
 * How: the http.Server's 'connection' listeners are wrapped. Each new socket's first bytes are read
 * (until the request line is complete, at most a few hundred bytes); a `PUT <prefix>...` request is
 * served here by a small raw reader, everything else is pushed back with `unshift` and handed to the
 * untouched Node listeners, so all other traffic takes the normal path. The reader reads exactly
 * Content-Length bytes when that header is present (whatever Transfer-Encoding says), de-chunks only
 * when it is absent, answers with `Connection: close` and closes the socket. A PUT that arrives on a
 * reused keep-alive connection never reaches this reader; the Fastify route for the same path serves
 * it (it then needs a well-formed body, as any HTTP parser would).
 */

export interface RawUploadRequest {
  method: string;
  /** Path and query as sent. */
  target: string;
  headers: Record<string, string>;
  /** Declared length when Content-Length was sent; the body stream then yields exactly that many bytes. */
  contentLength: number | undefined;
  body: Readable;
}

export interface RawUploadResponse {
  status: number;
  body: unknown;
}

export type RawUploadHandler = (req: RawUploadRequest) => Promise<RawUploadResponse>;

const MAX_HEAD_BYTES = 16 * 1024;
// Same as Node's default headersTimeout: a connection that sends nothing for this long is dropped either way.
const SNIFF_TIMEOUT_MS = 60_000;
const IDLE_TIMEOUT_MS = 15 * 60_000;
const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  411: 'Length Required',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  507: 'Insufficient Storage',
};

/**
 * Returns `closePending()`, for the server's preClose: sockets still being sniffed (connected, nothing
 * sent yet) belong to no HTTP parser, so the server's own close does not end them as it ends idle
 * HTTP connections, and a shutdown would wait up to SNIFF_TIMEOUT_MS for each (the real client's
 * connection pool leaves such sockets behind).
 */
export function installLenientUploadSink(server: Server, pathPrefix: string, handler: RawUploadHandler, log: { warn(obj: object, msg: string): void }) {
  const signature = Buffer.from(`PUT ${pathPrefix}`, 'latin1');
  const original = server.listeners('connection') as Array<(socket: Socket) => void>;
  const sniffing = new Set<Socket>();
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), SNIFF_TIMEOUT_MS);
    timer.unref();
    sniffing.add(socket);
    socket.once('close', () => sniffing.delete(socket));
    const handOver = () => {
      sniffing.delete(socket);
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.pause();
      if (buffered.length) socket.unshift(buffered);
      for (const listener of original) listener.call(server, socket);
      socket.resume();
    };
    const onEnd = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const n = Math.min(buffered.length, signature.length);
      if (!buffered.subarray(0, n).equals(signature.subarray(0, n))) return handOver();
      if (buffered.length < signature.length) return;
      sniffing.delete(socket);
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      void serveRaw(socket, buffered, handler, log);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
  });
  return {
    closePending() {
      for (const socket of sniffing) socket.destroy();
      sniffing.clear();
    },
  };
}

function respond(socket: Socket, status: number, body: unknown) {
  const text = JSON.stringify(body ?? {});
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

async function serveRaw(socket: Socket, first: Buffer, handler: RawUploadHandler, log: { warn(obj: object, msg: string): void }) {
  socket.on('error', () => undefined);
  // The client's own limit is 600 s per upload; a connection silent for longer is dead.
  socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
  let head = first;
  let end = head.indexOf('\r\n\r\n');
  // Read the rest of the header block.
  while (end < 0) {
    if (head.length > MAX_HEAD_BYTES) return respond(socket, 431, { error: 'Request headers too large' });
    const more = await new Promise<Buffer | null>((resolve) => {
      const onData = (c: Buffer) => {
        cleanup();
        resolve(c);
      };
      const onClose = () => {
        cleanup();
        resolve(null);
      };
      const cleanup = () => {
        socket.removeListener('data', onData);
        socket.removeListener('close', onClose);
        socket.removeListener('end', onClose);
      };
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.once('end', onClose);
    });
    if (!more) return socket.destroy();
    head = Buffer.concat([head, more]);
    end = head.indexOf('\r\n\r\n');
  }
  const lines = head.subarray(0, end).toString('latin1').split('\r\n');
  const [method, target, version] = (lines.shift() ?? '').split(' ');
  if (!method || !target || !version?.startsWith('HTTP/1.')) return respond(socket, 400, { error: 'Malformed request line' });
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const leftover = head.subarray(end + 4);
  socket.pause();

  let contentLength: number | undefined;
  let body: Readable;
  if (headers['content-length'] !== undefined) {
    // Content-Length wins over Transfer-Encoding: that is exactly the client's quirk (see above).
    if (!/^\d{1,15}$/.test(headers['content-length'])) return respond(socket, 400, { error: 'Invalid Content-Length' });
    contentLength = Number(headers['content-length']);
    body = lengthLimited(socket, leftover, contentLength);
  } else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    const raw = lengthLimited(socket, leftover, Infinity);
    const decoded = raw.pipe(dechunker());
    decoded.on('error', () => undefined);
    // Once the last chunk is decoded the client waits for our answer; its later close is no error.
    decoded.once('end', () => raw.removeAllListeners('error').on('error', () => undefined));
    raw.on('error', (err) => decoded.destroy(err));
    body = decoded;
  } else {
    return respond(socket, 411, { error: 'Send Content-Length or Transfer-Encoding: chunked' });
  }
  if (headers.expect?.toLowerCase() === '100-continue') socket.write('HTTP/1.1 100 Continue\r\n\r\n');
  try {
    const res = await handler({ method, target, headers, contentLength, body });
    if (!socket.destroyed) respond(socket, res.status, res.body);
  } catch (err) {
    log.warn({ err }, 'raw upload failed');
    if (!socket.destroyed) respond(socket, 500, { error: 'Upload failed' });
  }
}

/** Yields `leftover` then socket data, stopping after `limit` bytes; fails if the socket closes early. */
function lengthLimited(socket: Socket, leftover: Buffer, limit: number): Readable {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  // Consumers attach their own listeners; this one keeps a late abort (after the handler answered
  // without reading the body) from becoming an unhandled 'error' event.
  out.on('error', () => undefined);
  let remaining = limit;
  let done = false;
  let waiting = false;
  const finish = () => {
    done = true;
    socket.removeListener('data', onData);
    socket.removeListener('end', onClose);
    socket.removeListener('close', onClose);
    out.end();
  };
  const push = (chunk: Buffer) => {
    const take = remaining === Infinity ? chunk : chunk.subarray(0, remaining);
    remaining -= take.length;
    if (take.length && !out.write(take) && !waiting) {
      waiting = true;
      socket.pause();
      out.once('drain', () => {
        waiting = false;
        socket.resume();
      });
    }
    if (remaining === 0) finish();
  };
  const onData = (chunk: Buffer) => push(chunk);
  // http.Server sockets allow half-open connections, so a client that gives up mid-body shows as
  // 'end' without 'close': both count as the end of the body.
  const onClose = () => {
    if (done) return;
    done = true;
    socket.removeListener('data', onData);
    socket.removeListener('end', onClose);
    socket.removeListener('close', onClose);
    out.destroy(new Error(`Connection closed after ${limit - remaining} of ${limit} bytes`));
  };
  if (limit === 0) {
    out.end();
    return out;
  }
  socket.on('data', onData);
  socket.once('end', onClose);
  socket.once('close', onClose);
  if (leftover.length) push(leftover);
  if (!done) socket.resume();
  return out;
}

/** Decodes a real chunked body (for clients that send one properly). */
function dechunker(): Transform {
  let buf = Buffer.alloc(0);
  let need = -1; // bytes of chunk data still expected; -1 = reading a size line
  let finished = false;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (finished) return cb();
        if (need < 0) {
          const eol = buf.indexOf('\r\n');
          if (eol < 0) return cb();
          const size = parseInt(buf.subarray(0, eol).toString('latin1').split(';')[0]!.trim(), 16);
          if (!Number.isFinite(size)) return cb(new Error('Invalid chunk size'));
          buf = buf.subarray(eol + 2);
          if (size === 0) {
            // The client now waits for our answer with the socket open: end the body here.
            finished = true;
            this.push(null);
            return cb();
          }
          need = size;
        }
        if (buf.length < need + 2) {
          if (buf.length > need) return cb();
          this.push(buf);
          need -= buf.length;
          buf = Buffer.alloc(0);
          return cb();
        }
        this.push(buf.subarray(0, need));
        buf = buf.subarray(need + 2);
        need = -1;
      }
    },
  });
}

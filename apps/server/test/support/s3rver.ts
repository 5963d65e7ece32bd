import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * s3rver, the S3-compatible server of the tests, in a child process (its ListObjectsV2 continuation
 * tokens need --openssl-legacy-provider). It exits when its stdin closes, so it cannot outlive a
 * crashed test. `env` is what an instance needs to use it (S3_*).
 */
export async function startS3rver(opts: { port?: number; bucket?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-s3rver-'));
  const main = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: '127.0.0.1', port: Number(process.argv[3]), directory: process.argv[2], silent: true });
server.run().then(({ port }) => process.stdout.write(port + '\\n'));
process.stdin.on('end', () => server.close(() => process.exit(0))).resume();
`;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', main, createRequire(import.meta.url).resolve('s3rver'), dir, String(opts.port ?? 0)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [Buffer | null];
  if (!chunk) throw new Error('s3rver exited before listening');
  const endpoint = `http://127.0.0.1:${Number(chunk.toString())}`;
  const bucket = opts.bucket ?? 'sightline-test';
  return {
    endpoint,
    bucket,
    dir,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    /** Every object key in the bucket (s3rver keeps them as files with a `._S3rver_object` suffix). */
    keys(): string[] {
      const root = path.join(dir, bucket);
      if (!fs.existsSync(root)) return [];
      return (fs.readdirSync(root, { recursive: true }) as string[])
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => f.slice(0, -'._S3rver_object'.length).split(path.sep).join('/'));
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.stdin!.end();
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

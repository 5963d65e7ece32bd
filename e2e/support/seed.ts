import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { linkFrom, uniqueUser } from './api';

/** Data for the web-polish specs, made through the API of a server at `base`. */
export const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models');
export const SHAPES = path.join(FIXTURES, 'shapes3.zip');
export const ONNX = path.join(FIXTURES, 'shapes3-detect.onnx');

export async function mailTo(request: APIRequestContext, sink: string, to: string, match: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const mails = (await (await request.get(`${sink}/mails?to=${encodeURIComponent(to)}`)).json()) as Array<{ text: string }>;
        text = mails.filter((m) => match.test(m.text)).at(-1)?.text ?? '';
        return text.length > 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return text;
}

/** Sign-up, the mailed verification link, sign-in: the request context holds the session cookie after. */
export async function signedInUser(request: APIRequestContext, base: string, sink: string, prefix: string) {
  const user = uniqueUser(prefix);
  expect((await request.post(`${base}/v1/auth/signup`, { data: user })).status()).toBe(201);
  const verify = linkFrom(await mailTo(request, sink, user.email, /verify/), /http:\/\/\S+\/v1\/auth\/verify\?token=[\w%-]+/);
  expect((await request.get(verify, { maxRedirects: 0 })).status()).toBe(302);
  expect((await request.post(`${base}/v1/auth/signin`, { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const me = (await (await request.get(`${base}/v1/users/me`)).json()).data;
  return { ...user, id: me.id as string };
}

export async function post<T = { id: string }>(request: APIRequestContext, url: string, data?: unknown, status = 201): Promise<T> {
  const res = await request.post(url, { data });
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()).data as T;
}

/** A dataset with its archive partly or wholly sent through tus; returns what finishing needs. */
export async function datasetWithUpload(request: APIRequestContext, base: string, uid: string, name: string, file = SHAPES, sendBytes?: number) {
  const bytes = fs.readFileSync(file);
  const dataset = await post<{ id: string }>(request, `${base}/v1/datasets`, { meta: { name }, task: 'detect' });
  const filename = path.basename(file);
  const token = await post<{ token: string; uploadUrl: string }>(
    request,
    `${base}/v1/uploads/token`,
    { path: `users/${uid}/datasets/${dataset.id}/${filename}`, bytes: bytes.length },
    200,
  );
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const created = await request.post(new URL(token.uploadUrl, base).href, {
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(bytes.length), 'Upload-Metadata': `token ${b64(token.token)},filename ${b64(filename)}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const uploadUrl = new URL(created.headers()['location']!, base).href;
  const send = async (from: number, to: number) => {
    const res = await request.patch(uploadUrl, {
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' },
      data: bytes.subarray(from, to),
    });
    expect(res.status(), await res.text()).toBe(204);
  };
  const first = sendBytes ?? bytes.length;
  await send(0, first);
  return {
    id: dataset.id,
    uploadUrl,
    /** Sends the whole file again as a new upload (another browser: the partial one is left behind) and asks for processing. */
    async finishFresh() {
      const again = await post<{ token: string; uploadUrl: string }>(
        request,
        `${base}/v1/uploads/token`,
        { path: `users/${uid}/datasets/${dataset.id}/${filename}`, bytes: bytes.length },
        200,
      );
      const res = await request.post(new URL(again.uploadUrl, base).href, {
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(bytes.length), 'Upload-Metadata': `token ${b64(again.token)},filename ${b64(filename)}` },
      });
      expect(res.status(), await res.text()).toBe(201);
      const patched = await request.patch(new URL(res.headers()['location']!, base).href, {
        headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        data: bytes,
      });
      expect(patched.status(), await patched.text()).toBe(204);
      await post(request, `${base}/v1/datasets/${dataset.id}/process`, undefined, 202);
    },
    /** Sends the rest and asks for processing. */
    async finish() {
      if (first < bytes.length) await send(first, bytes.length);
      await post(request, `${base}/v1/datasets/${dataset.id}/process`, undefined, 202);
    },
  };
}

export async function waitForDataset(request: APIRequestContext, base: string, id: string, status = 'Ready') {
  await expect
    .poll(async () => (await (await request.get(`${base}/v1/datasets/${id}`)).json()).data?.status, { timeout: 90_000, intervals: [500, 1000] })
    .toBe(status);
}

/** An ONNX model uploaded as weights into a project. */
export async function uploadedModel(request: APIRequestContext, base: string, projectId: string, name: string) {
  const res = await request.post(`${base}/v1/models/upload`, {
    multipart: { project_id: projectId, model_name: name, file: { name: 'weights.onnx', mimeType: 'application/octet-stream', buffer: fs.readFileSync(ONNX) } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { id: string };
}

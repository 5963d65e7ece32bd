import { expect, type APIRequestContext } from '@playwright/test';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * Creates a dataset and uploads its archive over the API, as a script or the CLI would, without the
 * browser's check before upload; then starts processing. Returns the dataset id.
 */
export async function uploadDatasetViaApi(
  request: APIRequestContext,
  uid: string,
  name: string,
  task: string,
  filename: string,
  bytes: Buffer,
): Promise<string> {
  const created = await request.post('/v1/datasets', { data: { meta: { name }, task } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.id as string;
  const token = await request.post('/v1/uploads/token', { data: { path: `users/${uid}/datasets/${id}/${filename}`, bytes: bytes.length } });
  expect(token.status()).toBe(200);
  const tus = await request.post('/v1/uploads/tus', {
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `token ${b64((await token.json()).data.token)},filename ${b64(filename)}`,
    },
  });
  expect(tus.status()).toBe(201);
  const patch = await request.patch(new URL(tus.headers().location!, 'http://x').pathname, {
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    data: bytes,
  });
  expect(patch.status()).toBe(204);
  expect((await request.post(`/v1/datasets/${id}/process`)).status()).toBe(202);
  return id;
}

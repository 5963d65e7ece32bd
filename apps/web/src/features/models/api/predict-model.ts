import { useMutation } from '@tanstack/react-query';
import { Messages, type PredictResponse } from '@sightline/contracts';

export type { PredictBox, PredictResponse, PredictResult, PredictSpeed } from '@sightline/contracts';

export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix seconds. */
  reset: number;
}
export interface PredictInput {
  modelId: string;
  file: Blob;
  filename?: string;
  conf: number;
  iou: number;
  imgsz: number;
}

/** An answer other than 200, with what the page needs to explain it. */
export class PredictError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait, from Retry-After on a 429. */
    readonly retryAfter: number | null,
    /** For `error/no-onnx`: where the model can be exported. */
    readonly exportPath: string | null,
  ) {
    super(message);
    this.name = 'PredictError';
  }
}

const num = (v: string | null) => (v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));

function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = num(headers.get('x-ratelimit-limit'));
  const remaining = num(headers.get('x-ratelimit-remaining'));
  const reset = num(headers.get('x-ratelimit-reset'));
  return limit === null || remaining === null ? null : { limit, remaining, reset: reset ?? 0 };
}

/**
 * POST /v1/predict/{modelId}. The answer is the HUB-shaped body itself (no `{data}` envelope) and
 * the quota lives in headers, so this reads the response directly instead of going through `api`.
 */
export async function predict(input: PredictInput, signal?: AbortSignal): Promise<{ prediction: PredictResponse; rateLimit: RateLimit | null }> {
  const body = new FormData();
  body.append('file', input.file, input.filename ?? 'image.jpg');
  body.append('conf', String(input.conf));
  body.append('iou', String(input.iou));
  body.append('imgsz', String(input.imgsz));
  let response: Response;
  try {
    response = await fetch(`/v1/predict/${encodeURIComponent(input.modelId)}`, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      signal,
      headers: { Accept: 'application/json' },
    });
  } catch (cause) {
    if ((cause as Error)?.name === 'AbortError') throw cause;
    throw new PredictError(0, 'auth/network-request-failed', Messages.networkError, null, null);
  }
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error ?? {};
    const retryAfter = num(response.headers.get('retry-after')) ?? (typeof error.details?.retryAfter === 'number' ? error.details.retryAfter : null);
    throw new PredictError(
      response.status,
      String(error.code ?? 'error/unknown'),
      String(error.message ?? (response.statusText || Messages.somethingWrong)),
      retryAfter,
      error.details?.export?.path ?? null,
    );
  }
  return { prediction: json as PredictResponse, rateLimit: rateLimitOf(response.headers) };
}

export const usePredict = () => useMutation({ mutationFn: (input: PredictInput) => predict(input) });

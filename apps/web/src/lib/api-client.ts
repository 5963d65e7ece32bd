import { ErrorCode, Messages, type ErrorBody } from '@sightline/contracts';

/** Code used when fetch itself fails (no answer from the server), as in spec §8. */
export const NETWORK_ERROR_CODE = 'auth/network-request-failed';

/** An error answered by the server (`{error:{code,message}}`) or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  readonly requestId?: string;
  constructor(status: number, code: string, message: string, details?: unknown, requestId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
  get isNetworkError(): boolean {
    return this.code === NETWORK_ERROR_CODE;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

type Listener = (error: ApiError) => void;
const errorListeners = new Set<Listener>();
/** Global hook on every API error (the account-deleted alert listens here). */
export function onApiError(listener: Listener): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Calls the API on the same origin with the session cookie and unwraps `{data}`. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, headers = {} } = options;
  const init: RequestInit = { method, signal, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    if ((cause as Error)?.name === 'AbortError') throw cause;
    throw emit(new ApiError(0, NETWORK_ERROR_CODE, Messages.networkError));
  }
  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const err = (json as Partial<ErrorBody> | undefined)?.error;
    throw emit(
      new ApiError(
        response.status,
        err?.code ?? (response.status === 404 ? ErrorCode.NotFound : ErrorCode.Unknown),
        err?.message ?? (response.statusText || Messages.somethingWrong),
        err?.details,
        err?.requestId,
      ),
    );
  }
  return (json as { data: T } | undefined)?.data as T;
}

function emit(error: ApiError): ApiError {
  for (const listener of [...errorListeners]) listener(error);
  return error;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) => request<T>(path, { method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PUT', body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body: body ?? {} }),
  delete: <T>(path: string, body?: unknown) => request<T>(path, { method: 'DELETE', body }),
};

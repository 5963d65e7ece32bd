import { ErrorCode, Messages, type ErrorBody } from '@sightline/contracts';
import { ApiError, NETWORK_ERROR_CODE } from './api-client';

/**
 * POSTs a multipart form with upload progress (fetch has none), with the same `{data}` unwrapping
 * and `{error:{code,message}}` handling as the API client; `fallbackMessage` when the server sent none.
 */
export function postForm<T>(
  path: string,
  form: FormData,
  {
    onProgress,
    signal,
    fallbackMessage = Messages.somethingWrong,
  }: { onProgress?: (fraction: number) => void; signal?: AbortSignal; fallbackMessage?: string } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_CODE, Messages.networkError));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((json as { data: T } | undefined)?.data as T);
        return;
      }
      const err = (json as Partial<ErrorBody> | undefined)?.error;
      reject(new ApiError(xhr.status, err?.code ?? ErrorCode.Unknown, err?.message || fallbackMessage, err?.details, err?.requestId));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

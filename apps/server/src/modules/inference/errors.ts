/**
 * Failures of the inference library, each with a stable code so the HTTP layer can map them to statuses:
 * `invalid_image` and `invalid_model` are the caller's fault (4xx), `unsupported_model` means a valid model this
 * engine cannot run (4xx), `inference_failed` is ours or onnxruntime's (5xx).
 */
export type InferenceErrorCode = 'invalid_image' | 'invalid_model' | 'unsupported_model' | 'inference_failed';

export class InferenceError extends Error {
  constructor(
    public readonly code: InferenceErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InferenceError';
  }
}

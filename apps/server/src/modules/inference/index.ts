export { InferenceEngine, DEFAULT_MAX_CACHE_BYTES } from './inference.engine.js';
export type { EngineStats, InferenceEngineOptions, ModelDescription, ModelRef } from './inference.engine.js';
export { InferenceError, type InferenceErrorCode } from './errors.js';
export { readOnnxMetadata, parseUltralyticsMetadata } from './onnx-metadata.js';
export type { OnnxModelInfo, UltralyticsMetadata, YoloTask } from './onnx-metadata.js';
export { parsePythonLiteral, pyToJson, PythonLiteralError } from './python-literal.js';
export type { PyKey, PyValue } from './python-literal.js';
export type * from './types.js';

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { varint } from './onnx-rewrite.js';

/**
 * The shared model fixtures live beside the repository (`<repo>/../shared/fixtures/models`), both in a developer
 * checkout and in CI. Tests fail loudly when they are missing rather than skipping, so parity is never silently
 * untested.
 */
export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../../../../../../shared/fixtures/models');

export function fixture(name: string): string {
  const p = path.join(FIXTURES_DIR, name);
  if (!existsSync(p)) throw new Error(`Missing model fixture ${p}; the shared fixtures must sit beside the repository`);
  return p;
}

export function readGolden<T = any>(name: string): T {
  return JSON.parse(readFileSync(fixture(name), 'utf8')) as T;
}

export interface GoldenDetection {
  class_id: number;
  name: string;
  confidence: number;
  box_xyxy: [number, number, number, number];
  polygon_xy?: Array<[number, number]>;
  mask_pixels_at_input_res?: number;
}

export interface GoldenImage {
  file: string;
  width: number;
  height: number;
  letterbox: { scale: number; resized_wh: [number, number]; pad_ltrb: [number, number, number, number] };
  input_check: { sha256_letterboxed_rgb_hwc_uint8: string; sum_of_input_tensor: number; identity_resize: boolean };
  detections: GoldenDetection[];
}

export interface GoldenBoxes {
  task: string;
  names: Record<string, string>;
  onnx_metadata_props: Record<string, string>;
  postprocess: { conf: number; iou: number; max_det: number };
  raw_output_file?: { file: string; shape: [number, number, number]; order: string[] } | null;
  images: GoldenImage[];
}

export interface GoldenClassify {
  names: Record<string, string>;
  onnx_metadata_props: Record<string, string>;
  images: Array<{
    file: string;
    width: number;
    height: number;
    ground_truth: string | null;
    input_check: { sum_of_input_tensor: number };
    probs: number[];
    top5: Array<{ class_id: number; name: string; prob: number }>;
  }>;
}

// --- a minimal protobuf writer, to build ONNX ModelProtos in tests ---------------------------------------------------
export { varint };
/** Length-delimited field (wire type 2). */
export const lenField = (field: number, bytes: Uint8Array | number[]): number[] => [...varint(field * 8 + 2), ...varint(bytes.length), ...bytes];
/** Varint field (wire type 0). */
export const varintField = (field: number, v: number): number[] => [...varint(field * 8), ...varint(v)];

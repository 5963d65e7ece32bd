import { describe, expect, it } from 'vitest';
import { exportArgs } from './exports.service.js';

describe('export command words (ADR 0041)', () => {
  it('makes ONNX exports dynamic unless the user chose', () => {
    expect(exportArgs('onnx', {})).toEqual(['export', 'model=best.pt', 'format=onnx', 'dynamic=True']);
    expect(exportArgs('onnx', { imgsz: 320, dynamic: false })).toEqual(['export', 'model=best.pt', 'format=onnx', 'imgsz=320', 'dynamic=False']);
    expect(exportArgs('onnx', { dynamic: true, opset: 17 })).toEqual(['export', 'model=best.pt', 'format=onnx', 'dynamic=True', 'opset=17']);
  });

  it('leaves the other formats as asked', () => {
    expect(exportArgs('torchscript', {})).toEqual(['export', 'model=best.pt', 'format=torchscript']);
    expect(exportArgs('tflite', { int8: true, half: undefined })).toEqual(['export', 'model=best.pt', 'format=tflite', 'int8=True']);
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_CODE } from '../../../lib/api-client';
import { createModelErrorMessage } from './create-model';
import { restoreModelError } from './restore-model';
import { isModelFile, uploadErrorMessage } from './upload-model';

describe('model messages of spec §8', () => {
  it("upload: the server's message when present, else 'Unable to upload model...'", () => {
    expect(uploadErrorMessage(new ApiError(400, 'error/invalid-model-file', 'The file is not a YOLO model (.pt or .onnx)'))).toBe(
      'The file is not a YOLO model (.pt or .onnx)',
    );
    expect(uploadErrorMessage(new ApiError(500, 'error/unknown', ''))).toBe('Unable to upload model...');
    expect(uploadErrorMessage(new ApiError(0, NETWORK_ERROR_CODE, 'offline'))).toBe('Unable to upload model...');
    expect(uploadErrorMessage(new Error('x'))).toBe('Unable to upload model...');
  });

  it("create: 'Unable to Create Model', surfacing Missing Required Properties", () => {
    expect(createModelErrorMessage(new ApiError(400, 'error/missing-required-properties', 'Missing Required Properties: owner'))).toBe(
      'Unable to Create Model. Missing Required Properties: owner',
    );
    expect(createModelErrorMessage(new ApiError(500, 'error/unknown', 'boom'))).toBe('Unable to Create Model');
  });

  it("restore: 'Unable to restore model', with the reason when its project is in the trash", () => {
    expect(restoreModelError(new ApiError(409, 'error/parent-deleted', 'Restore the project "x" first'))).toBe(
      'Unable to restore model: Restore the project "x" first',
    );
    expect(restoreModelError(new ApiError(500, 'error/unknown', 'boom'))).toBe('Unable to restore model');
  });

  it('accepts .pt and .onnx files only', () => {
    expect(['best.pt', 'Model.ONNX', 'a.pth', 'weights.zip'].map(isModelFile)).toEqual([true, true, false, false]);
  });
});

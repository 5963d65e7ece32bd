import type { uploadTokenResponse } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type UploadToken = z.infer<typeof uploadTokenResponse>;

/** The storage path of a dataset archive (spec §7: users/{uid}/datasets/{id}/{file}). */
export const archivePath = (uid: string, datasetId: string, filename: string) => `users/${uid}/datasets/${datasetId}/${filename.replace(/[/\\]/g, '_')}`;

/**
 * getUploadToken of the spec: checks the path and that the bytes fit the storage left.
 * Fails with InsufficientStorageError (403, details {available, required}) or NoArchiveProvided (400).
 */
export const getUploadToken = (path: string, bytes: number) => api.post<UploadToken>('/v1/uploads/token', { path, bytes });

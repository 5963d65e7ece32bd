import type { createDatasetBody, Dataset } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

export type CreateDatasetInput = z.input<typeof createDatasetBody>;

/** POST /v1/datasets: a new dataset in status Initiating, waiting for its archive. */
export const createDataset = (input: CreateDatasetInput) => api.post<Dataset>('/v1/datasets', input);

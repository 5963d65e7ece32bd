import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type Model } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { projectKeys } from '../../../lib/query-keys';
import { postForm } from '../../../lib/upload-form';
import { uploads } from '../../../lib/uploads';
import { modelQueryOptions } from './get-model';
import { addModel, refreshModelContainers } from './model-cache';
import { tModels } from '../i18n';

export const MODEL_FILE_EXTENSIONS = ['.pt', '.onnx'] as const;
export const isModelFile = (name: string) => MODEL_FILE_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

export interface UploadModelInput {
  file: File;
  modelName: string;
  /** Upload into this project; without it the server creates a project named `projectName`. */
  projectId?: string;
  projectName?: string;
}

/** Spec §7: multipart model_name, project_id, project_name, file → `{data:{id}}`. */
export function uploadModel(input: UploadModelInput, onProgress?: (fraction: number) => void) {
  const form = new FormData();
  form.append('model_name', input.modelName);
  form.append('project_id', input.projectId ?? '');
  form.append('project_name', input.projectName ?? '');
  form.append('file', input.file, input.file.name);
  return postForm<{ id: string }>('/v1/models/upload', form, { onProgress, fallbackMessage: Messages.unableUploadModel });
}

/** The server's message when it sent one, else 'Unable to upload model...' (spec §8). */
export const uploadErrorMessage = (error: unknown) => (isApiError(error) && error.status > 0 && error.message ? error.message : Messages.unableUploadModel);

export function useUploadModel() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: async (input: UploadModelInput): Promise<Model> => {
      const uploadId = `model-upload-${Date.now().toString(36)}`;
      // Registered with the uploads store: leaving the page asks first (spec §2).
      uploads.start({ id: uploadId, name: input.file.name });
      setProgress(0);
      try {
        const { id } = await uploadModel(input, (f) => {
          setProgress(f);
          uploads.progress(uploadId, Math.min(f, 0.99));
        });
        // Spec §7: then the model is fetched and the project's updated date refreshed.
        return await queryClient.fetchQuery({ ...modelQueryOptions(id), staleTime: 0 });
      } finally {
        uploads.finish(uploadId);
      }
    },
    onSuccess: async (model) => {
      notifications.success(Messages.modelUploaded, { link: { text: tModels('open'), path: `/models/${model.id}` } });
      addModel(queryClient, model);
      await refreshModelContainers(queryClient, model.project.id);
      if (model.project.id) await queryClient.invalidateQueries({ queryKey: projectKeys.models(model.project.id) });
    },
    onError: (error) => notifications.error(uploadErrorMessage(error)),
  });
  return { ...mutation, progress };
}

import { api, isApiError } from './api-client';

/** GET a list endpoint; a 404 (endpoint not there yet) is an empty list. */
export async function getListOrEmpty<T>(path: string, signal?: AbortSignal): Promise<T[]> {
  try {
    const data = await api.get<T[]>(path, signal);
    return Array.isArray(data) ? data : [];
  } catch (error) {
    if (isApiError(error) && error.status === 404) return [];
    throw error;
  }
}

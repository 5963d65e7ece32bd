import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ConsoleChunk } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { ConsoleChunk } from '@sightline/contracts';

const PAGE = 500;
/** A hole in the chunk ids this old is a chunk the client never delivered (2 attempts), not a late one. */
const LATE_CHUNK_MS = 60_000;

export async function getConsoleAfter(modelId: string, after: number, signal?: AbortSignal): Promise<ConsoleChunk[]> {
  const out: ConsoleChunk[] = [];
  for (let cursor = after; ;) {
    const page = await api.get<ConsoleChunk[]>(`/v1/models/${encodeURIComponent(modelId)}/console?after=${cursor}&limit=${PAGE}`, signal);
    out.push(...page);
    if (page.length < PAGE) return out;
    cursor = page[page.length - 1]!.chunkId;
  }
}

/**
 * Where the next fetch resumes. Chunks arrive out of order (the client sends from a thread pool),
 * so resume before the first recent hole, and past holes old enough to be lost chunks.
 */
export function resumeAfter(chunks: ConsoleChunk[], now = Date.now()): number {
  let end = 0;
  for (const c of chunks) {
    if (c.chunkId > end + 1 && now - new Date(c.created).getTime() < LATE_CHUNK_MS) break;
    end = Math.max(end, c.chunkId);
  }
  return end;
}

export function mergeChunks(a: ConsoleChunk[], b: ConsoleChunk[]): ConsoleChunk[] {
  if (!b.length) return a;
  const byId = new Map(a.map((c) => [c.chunkId, c]));
  for (const c of b) byId.set(c.chunkId, c);
  return [...byId.values()].sort((x, y) => x.chunkId - y.chunkId);
}

/** The console so far; each refetch asks only for what is new and merges it in. */
export const trainingConsoleQueryOptions = (modelId: string) =>
  queryOptions({
    queryKey: ['training', modelId, 'console'] as const,
    queryFn: async ({ signal, client, queryKey }) => {
      const known = client.getQueryData<ConsoleChunk[]>(queryKey) ?? [];
      return mergeChunks(known, await getConsoleAfter(modelId, resumeAfter(known), signal));
    },
  });

export const useTrainingConsole = (modelId: string, options: { enabled?: boolean; refetchInterval?: number | false } = {}) =>
  useQuery({ ...trainingConsoleQueryOptions(modelId), ...options });

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamItemKind } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export interface ShareableItem {
  id: string;
  name: string;
}
interface Listed {
  id: string;
  meta: { name: string };
  owner: { uid: string };
  team: { id: string | null };
}
const COLLECTION: Record<TeamItemKind, string> = { dataset: 'datasets', project: 'projects', model: 'models' };

/** The caller's own items of one kind that are not in this team yet (what they may share with it). */
export async function getShareableItems(kind: TeamItemKind, uid: string, teamId: string, signal?: AbortSignal): Promise<ShareableItem[]> {
  const page = await api.get<{ results: Listed[] }>(`/v1/${COLLECTION[kind]}?limit=500`, signal);
  return page.results.filter((i) => i.owner.uid === uid && i.team.id !== teamId).map((i) => ({ id: i.id, name: i.meta.name }));
}

export const useShareableItems = (kind: TeamItemKind, uid: string, teamId: string, enabled: boolean) =>
  useQuery(
    queryOptions({ queryKey: ['team-shareable', teamId, kind] as const, queryFn: ({ signal }) => getShareableItems(kind, uid, teamId, signal), enabled }),
  );

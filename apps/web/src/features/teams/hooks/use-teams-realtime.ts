import { useQueryClient } from '@tanstack/react-query';
import type { Model, Project } from '@sightline/contracts';
import { topics } from '@sightline/contracts';
import { datasetsList } from '../../datasets';
import { useMe } from '../../../lib/auth';
import { notifications } from '../../../lib/notifications';
import { modelKeys, notificationKeys, projectKeys } from '../../../lib/query-keys';
import { useTopic } from '../../../lib/use-topic';
import { teamKeys } from '../api/keys';
import { tTeams } from '../i18n';

/**
 * The caller's team events on their own topic (spec §4 team flow):
 * - `team.left` (left, removed, invite declined or cancelled, team deleted): that team's
 *   datasets, projects and models leave the lists at once, then the lists refetch;
 * - `team.joined` / `team.created`: lists and teams refetch (the team's items appear);
 * - `team.invited`: an in-app notification with a link to the invite (kept on /notifications).
 */
export function useTeamsRealtime() {
  const { user } = useMe();
  const queryClient = useQueryClient();
  useTopic(user ? topics.user(user.id) : null, (message) => {
    if (!message.event.startsWith('team.')) return;
    const refetch = () => {
      for (const queryKey of [teamKeys.all, notificationKeys.all, projectKeys.all, modelKeys.all]) void queryClient.invalidateQueries({ queryKey });
    };
    if (message.event === 'team.left' && message.data) {
      const teamId = message.data.id;
      queryClient.setQueryData<Project[]>(projectKeys.all, (list) => list?.filter((p) => p.team.id !== teamId));
      queryClient.setQueryData<Model[]>(modelKeys.all, (list) => list?.filter((m) => m.team.id !== teamId));
      datasetsList.removeWhere((d) => d.team.id === teamId);
      queryClient.removeQueries({ queryKey: teamKeys.items(teamId) });
      void queryClient.invalidateQueries({ queryKey: teamKeys.detail(teamId) });
      refetch();
    } else if (message.event === 'team.invited' && message.data) {
      notifications.success(tTeams('messages.inviteReceived', { name: message.data.name }), {
        link: { text: tTeams('messages.openInvite'), path: `/teams/${message.data.id}` },
      });
      refetch();
    } else {
      refetch();
    }
  });
}

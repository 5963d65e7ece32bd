import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { TEAM_ITEM_KINDS, type Team, type TeamItemKind } from '@sightline/contracts';
import { useMe } from '../../../lib/auth';
import { useShareableItems } from '../api/get-shareable-items';
import { useAddTeamItem } from '../api/team-items';
import { useTeamsT } from '../i18n';

const KIND_LABEL: Record<TeamItemKind, 'page.datasets' | 'page.projects' | 'page.models'> = {
  dataset: 'page.datasets',
  project: 'page.projects',
  model: 'page.models',
};

/** Share one of your datasets, projects or models with the team (a project brings its models). */
export function AddItemDialog({ team, opened, onClose }: { team: Team; opened: boolean; onClose: () => void }) {
  const { t } = useTeamsT();
  const { user } = useMe();
  const [kind, setKind] = useState<TeamItemKind>('project');
  const [id, setId] = useState<string | null>(null);
  const items = useShareableItems(kind, user?.id ?? '', team.id, opened && Boolean(user));
  const add = useAddTeamItem();
  return (
    <Modal opened={opened} onClose={onClose} title={t('addDialog.title', { name: team.meta.name })} centered>
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => {
            setKind(v as TeamItemKind);
            setId(null);
          }}
          data={TEAM_ITEM_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))}
        />
        <Select
          label={t('addDialog.item')}
          value={id}
          onChange={setId}
          data={(items.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
          placeholder={items.data && items.data.length === 0 ? t('addDialog.none') : undefined}
          searchable
          comboboxProps={{ withinPortal: true }}
          data-testid="share-item-select"
        />
        <Text size="xs" c="dimmed">
          {t('addDialog.note')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button
            disabled={!id}
            loading={add.isPending}
            onClick={() => id && add.mutate({ teamId: team.id, kind, id }, { onSuccess: () => (setId(null), onClose()) })}
            data-testid="share-item-submit"
          >
            {t('addDialog.share')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

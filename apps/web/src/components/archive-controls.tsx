import { Alert, Badge, Button, Group, Switch, Text } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import i18n from '../lib/i18n';
import { isApiError } from '../lib/api-client';
import { notifications } from '../lib/notifications';

/**
 * Archiving as a user action (spec §4 "Archiving uses dates.archived"; lists hide archived items by
 * default). The list pages share the "Show archived" filter (URL `?archived=1`), the item pages the
 * Archive / Unarchive action and the notice; each feature passes its own endpoint call.
 */

const ARCHIVED_PARAM = 'archived';

/** Whether the list shows archived items too (`?archived=1`). */
export function useShowArchived(): [boolean, (show: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const show = params.get(ARCHIVED_PARAM) === '1';
  const set = (next: boolean) => {
    const p = new URLSearchParams(params);
    if (next) p.set(ARCHIVED_PARAM, '1');
    else p.delete(ARCHIVED_PARAM);
    setParams(p, { replace: true });
  };
  return [show, set];
}

export function ShowArchivedSwitch() {
  const { t } = useTranslation();
  const [show, setShow] = useShowArchived();
  return <Switch label={t('archive.showArchived')} checked={show} onChange={(e) => setShow(e.currentTarget.checked)} data-testid="show-archived" />;
}

export function ArchivedBadge() {
  const { t } = useTranslation();
  return (
    <Badge color="gray" variant="light" leftSection={<IconArchive size={12} aria-hidden />} data-testid="archived-badge">
      {t('archive.badge')}
    </Badge>
  );
}

/**
 * Archive or unarchive with the spec's notifications: success with an Undo, or the failure with the
 * server's reason. `toggle(archived)` is the feature's endpoint call and cache update.
 */
export function useArchiveToggle(name: string, toggle: (archived: boolean) => Promise<unknown>) {
  const t = (key: string, options?: Record<string, unknown>) => i18n.t(`archive.${key}`, options ?? {});
  const mutation = useMutation({
    mutationFn: (archived: boolean) => toggle(archived),
    onSuccess: (_data, archived) =>
      notifications.success(
        t(archived ? 'archived' : 'unarchived', { name }),
        archived ? { callback: { text: t('undo'), func: () => mutation.mutate(false) } } : {},
      ),
    onError: (error) => notifications.error(t('failed', { name, reason: isApiError(error) ? error.message : String(error) })),
  });
  return mutation;
}

/** On an archived item's page: what archiving means, and Unarchive for those who may. */
export function ArchivedNotice({ canUnarchive, loading, onUnarchive }: { canUnarchive: boolean; loading?: boolean; onUnarchive: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="gray" variant="light" icon={<IconArchive size={18} aria-hidden />} title={t('archive.noticeTitle')} data-testid="archived-notice">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('archive.noticeBody')}</Text>
        {canUnarchive && (
          <Button size="xs" variant="default" loading={loading} onClick={onUnarchive} data-testid="unarchive">
            {t('archive.unarchive')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

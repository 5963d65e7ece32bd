import { Button, CopyButton, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconLink, IconLock, IconShare, IconWorld } from '@tabler/icons-react';
import type { Dataset, Privacy } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { useShareDataset } from '../api/share-dataset';
import { useDatasetsT } from '../i18n';

const OPTIONS: Array<{ value: Privacy; icon: typeof IconLock }> = [
  { value: 'private', icon: IconLock },
  { value: 'unlisted', icon: IconLink },
  { value: 'public', icon: IconWorld },
];

/** Privacy changes only through sharing (spec §4): private, unlisted (anyone with the link), public (listed). */
export function ShareMenu({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const share = useShareDataset(dataset.id);
  const url = `${window.location.origin}/datasets/${dataset.id}`;
  const choose = (privacy: Privacy) => {
    if (privacy === dataset.meta.privacy) return;
    share.mutate(privacy, {
      onSuccess: () => notifications.success(t('share.done', { privacy: t(`privacy.${privacy}`) })),
      onError: () => notifications.error(t('share.failed')),
    });
  };
  return (
    <Menu position="bottom-end" width={300} withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconShare size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={share.isPending}
          data-testid="share-button"
        >
          {t('share.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('share.who')}</Menu.Label>
        {OPTIONS.map(({ value, icon: Icon }) => (
          <Menu.Item
            key={value}
            onClick={() => choose(value)}
            leftSection={<Icon size={16} aria-hidden />}
            rightSection={dataset.meta.privacy === value ? <IconCheck size={16} aria-label={t('share.current')} /> : null}
          >
            <Text size="sm" fw={500}>
              {t(`privacy.${value}`)}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`share.${value}Hint`)}
            </Text>
          </Menu.Item>
        ))}
        {dataset.meta.privacy !== 'private' && (
          <>
            <Menu.Divider />
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Menu.Item
                  onClick={copy}
                  closeMenuOnClick={false}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconLink size={16} aria-hidden />}
                >
                  {copied ? t('share.copied') : t('share.copyLink')}
                </Menu.Item>
              )}
            </CopyButton>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

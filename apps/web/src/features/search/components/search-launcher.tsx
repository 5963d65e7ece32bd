import { useState } from 'react';
import { ActionIcon, Button, Kbd, Modal, Tooltip } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useSearchT } from '../i18n';
import { SearchBox } from './search-box';

/** The header's global search: a button (an icon on small screens) and Ctrl/⌘+K open it in a dialog. */
export function SearchLauncher({ compact, color }: { compact?: boolean; color?: string }) {
  const { t } = useSearchT();
  const [opened, setOpened] = useState(false);
  useHotkeys([['mod+K', () => setOpened(true)]]);
  return (
    <>
      {compact ? (
        <Tooltip label={t('label')}>
          <ActionIcon variant="subtle" color={color ?? 'gray'} onClick={() => setOpened(true)} aria-label={t('label')} data-testid="search-open">
            <IconSearch size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ) : (
        <Button
          variant="default"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={<Kbd size="xs">{t('shortcut')}</Kbd>}
          onClick={() => setOpened(true)}
          aria-label={t('label')}
          data-testid="search-open"
          w={260}
          maw="100%"
          justify="space-between"
        >
          {t('button')}
        </Button>
      )}
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('label')} size="lg" yOffset="10vh">
        <SearchBox autoFocus onOpen={() => setOpened(false)} testId="search-dialog" />
      </Modal>
    </>
  );
}

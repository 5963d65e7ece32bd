import { useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Radio, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { PRIVACIES, type Privacy } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';

interface ShareFormProps {
  privacy: Privacy;
  /** Path of the item's page; shown as a link to copy when it is unlisted or public. */
  path: string;
  note?: ReactNode;
  saving?: boolean;
  onSave: (privacy: Privacy) => void;
  onClose: () => void;
}

function ShareForm({ privacy, path, note, saving, onSave, onClose }: ShareFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState<Privacy>(privacy);
  const url = `${window.location.origin}${path}`;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSave(value);
      }}
    >
      <Stack>
        <Radio.Group value={value} onChange={(v) => setValue(v as Privacy)} label={t('share.label')}>
          <Stack gap="sm" mt="xs">
            {PRIVACIES.map((p) => (
              <Radio key={p} value={p} label={t(`privacy.${p}`)} description={t(`share.describe.${p}`)} />
            ))}
          </Stack>
        </Radio.Group>
        {note && (
          <Alert variant="light" color="blue">
            {note}
          </Alert>
        )}
        {value !== 'private' && (
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput style={{ flex: 1 }} label={t('share.link')} value={url} readOnly onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={url} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('share.copied') : t('share.copy')} withArrow>
                  <ActionIcon size={36} variant="light" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('share.copy')}>
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={value === privacy}>
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Share: choose private, unlisted (anyone with the link) or public (listed for everyone). */
export function ShareDialog({ opened, title, ...form }: ShareFormProps & { opened: boolean; title: ReactNode }) {
  return (
    <Modal opened={opened} onClose={form.onClose} title={title} centered>
      <ShareForm {...form} />
    </Modal>
  );
}

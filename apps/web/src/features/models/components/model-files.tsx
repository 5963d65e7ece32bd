import { Anchor, Badge, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { Model } from '@sightline/contracts';
import { FileSize } from '../../../components/file-size';
import { formatDateTime } from '../../../lib/dates';
import { useModelsT } from '../i18n';

/** The model's weights and exports, with sizes and download links (signed, one day). */
export function ModelFiles({ model }: { model: Pick<Model, 'files'> }) {
  const { t } = useModelsT();
  if (!model.files.length) {
    return (
      <Text size="sm" c="dimmed" data-testid="model-files-empty">
        {t('files.none')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table verticalSpacing="xs" data-testid="model-files">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('files.file')}</Table.Th>
            <Table.Th>{t('files.kind')}</Table.Th>
            <Table.Th>{t('files.size')}</Table.Th>
            <Table.Th>{t('files.created')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('files.download')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {model.files.map((f) => (
            <Table.Tr key={`${f.kind}-${f.name}`} data-testid="model-file">
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {f.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="outline" color="gray" size="sm">
                  {f.kind}
                </Badge>
                {f.epoch !== null && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {t('files.epoch', { epoch: f.epoch })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" data-testid="model-file-size">
                  <FileSize bytes={f.bytes} />
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(f.created)}</Text>
              </Table.Td>
              <Table.Td ta="right">
                {f.url && (
                  <Anchor href={f.url} download={f.name} size="sm" aria-label={t('files.downloadName', { name: f.name })}>
                    <IconDownload size={16} aria-hidden style={{ verticalAlign: 'middle' }} /> {t('files.download')}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

import { Alert, Badge, Group, List, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ArchiveCheck } from '../archive-check/check-archive';
import { useDatasetsT } from '../i18n';

const SPLITS = ['train', 'val', 'test'] as const;

/** What the check before upload found: the layout and its splits, or the reason the archive cannot be used. */
export function ArchiveCheckResult({ checking, result }: { checking: boolean; result: ArchiveCheck | null }) {
  const { t } = useDatasetsT();
  if (checking) {
    return (
      <Group gap="xs" role="status" data-testid="archive-check" data-state="checking">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          {t('check.checking')}
        </Text>
      </Group>
    );
  }
  if (!result) return null;
  if (result.status === 'skipped') {
    return (
      <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="archive-check" data-state="skipped">
        {t(result.reason === 'tar' ? 'check.skippedTar' : 'check.skippedLarge')}
      </Alert>
    );
  }
  if (result.status === 'blocked') {
    return (
      <Alert variant="light" color="red" icon={<IconAlertTriangle size={18} />} title={t('check.blockedTitle')} role="alert" data-testid="archive-check" data-state="blocked">
        <Stack gap={4}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {result.error.message}
          </Text>
          <Text size="xs" c="dimmed">
            <code>{result.error.code}</code>
            {result.error.file ? ` · ${result.error.file}` : ''}
          </Text>
        </Stack>
      </Alert>
    );
  }
  const errors = result.issues.filter((i) => i.severity === 'error');
  const warnings = result.issues.filter((i) => i.severity === 'warning');
  const shown = [...errors, ...warnings].slice(0, 6);
  const rest = errors.length + warnings.length - shown.length;
  return (
    <Alert
      variant="light"
      color={errors.length ? 'orange' : 'green'}
      icon={errors.length ? <IconAlertTriangle size={18} /> : <IconCircleCheck size={18} />}
      title={errors.length ? t('check.likelyProblems', { count: errors.length }) : t('check.okTitle')}
      data-testid="archive-check"
      data-state={errors.length ? 'warnings' : 'ok'}
    >
      <Stack gap={6}>
        <Text size="sm">{result.summary.description}</Text>
        {Object.keys(result.summary.splits).length > 0 && (
          <Group gap={6}>
            {SPLITS.filter((s) => result.summary.splits[s]).map((s) => (
              <Badge key={s} variant="white" color="dark" size="sm">
                {t('check.splitImages', { split: t(`splits.${s}`), count: result.summary.splits[s]!.images })}
              </Badge>
            ))}
          </Group>
        )}
        {shown.length > 0 && (
          <List size="xs" spacing={2}>
            {shown.map((issue, i) => (
              <List.Item key={i} c={issue.severity === 'error' ? 'red.8' : 'dimmed'}>
                {issue.file ? <code>{issue.file}: </code> : null}
                {issue.message}
              </List.Item>
            ))}
            {rest > 0 && <List.Item c="dimmed">{t('check.more', { count: rest })}</List.Item>}
          </List>
        )}
        {errors.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('check.likelyHint')}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

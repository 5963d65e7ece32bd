import { Alert, Badge, Group, List, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import type { LeftOutEntry } from '@sightline/contracts/dataset-layout';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ArchiveCheck } from '../archive-check/check-archive';
import { useDatasetsT } from '../i18n';

const SPLITS = ['train', 'val', 'test'] as const;

/** The pairs ultralytics would drop, each with its one reason (ADR 0029). */
function LeftOutList({ entries, total }: { entries: LeftOutEntry[]; total: number }) {
  const { t } = useDatasetsT();
  const shown = entries.slice(0, 50);
  return (
    <ScrollArea.Autosize mah={180} type="auto" offsetScrollbars>
      <List size="xs" spacing={2} aria-label={t('check.leftOutList')} data-testid="check-left-out">
        {shown.map((entry) => (
          <List.Item key={entry.image} data-testid="left-out-item" data-image={entry.image} style={{ overflowWrap: 'anywhere' }}>
            <code>{entry.image}</code>
            {entry.file && entry.file !== entry.image ? (
              <Text span size="xs" c="dimmed">
                {' '}
                ({entry.file}
                {entry.line ? `:${entry.line}` : ''})
              </Text>
            ) : null}
            {': '}
            {entry.message}
          </List.Item>
        ))}
        {total > shown.length && <List.Item c="dimmed">{t('check.more', { count: total - shown.length })}</List.Item>}
      </List>
    </ScrollArea.Autosize>
  );
}

/** What the check before upload found: the layout, its splits and the pairs left out, or why the archive cannot be used. */
export function ArchiveCheckResult({
  checking,
  result,
  progress,
}: {
  checking: boolean;
  result: ArchiveCheck | null;
  progress?: { done: number; total: number } | null;
}) {
  const { t } = useDatasetsT();
  if (checking) {
    return (
      <Group gap="xs" role="status" data-testid="archive-check" data-state="checking">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          {progress && progress.total > 0 ? t('check.checkingImages', { done: progress.done, total: progress.total }) : t('check.checking')}
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
      <Alert
        variant="light"
        color="red"
        icon={<IconAlertTriangle size={18} />}
        title={t('check.blockedTitle')}
        role="alert"
        data-testid="archive-check"
        data-state="blocked"
      >
        <Stack gap={4}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {result.error.message}
          </Text>
          <Text size="xs" c="dimmed">
            <code>{result.error.code}</code>
            {result.error.file ? ` · ${result.error.file}` : ''}
          </Text>
          {result.leftOut && result.leftOut.length > 0 && (
            <>
              <Text size="xs">{t('check.blockedLeftOut', { count: result.leftOut.length })}</Text>
              <LeftOutList entries={result.leftOut} total={result.leftOut.length} />
            </>
          )}
        </Stack>
      </Alert>
    );
  }
  const warnings = result.issues.filter((i) => i.severity === 'warning' && i.code !== 'dataset/task-picked');
  const shown = warnings.slice(0, 6);
  const rest = warnings.length - shown.length;
  const leftOut = result.leftOutCount;
  return (
    <Alert
      variant="light"
      color={leftOut ? 'orange' : 'green'}
      icon={leftOut ? <IconAlertTriangle size={18} /> : <IconCircleCheck size={18} />}
      title={leftOut ? t('check.leftOutTitle', { count: leftOut }) : t('check.okTitle')}
      data-testid="archive-check"
      data-state={leftOut ? 'left-out' : 'ok'}
    >
      <Stack gap={6}>
        <Text size="sm">{result.summary.description}</Text>
        {result.taskPicked && (
          <Text size="sm" fw={600} data-testid="task-picked">
            {t('check.taskPicked', { task: t(`tasks.${result.task}`) })}
          </Text>
        )}
        {Object.keys(result.summary.splits).length > 0 && (
          <Group gap={6}>
            {SPLITS.filter((s) => result.summary.splits[s]).map((s) => (
              <Badge key={s} variant="white" color="dark" size="sm">
                {t('check.splitImages', { split: t(`splits.${s}`), count: result.summary.splits[s]!.images })}
              </Badge>
            ))}
          </Group>
        )}
        <Text size="sm">{t('check.usable', { count: result.usable })}</Text>
        {leftOut > 0 && (
          <>
            <LeftOutList entries={result.leftOut} total={leftOut} />
            <Text size="xs" c="dimmed">
              {t('check.leftOutHint')}
            </Text>
          </>
        )}
        {shown.length > 0 && (
          <>
            <Text size="xs" fw={600}>
              {t('check.warnings')}
            </Text>
            <List size="xs" spacing={2}>
              {shown.map((issue, i) => (
                <List.Item key={i} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {issue.file ? <code>{issue.file}: </code> : null}
                  {issue.message}
                </List.Item>
              ))}
              {rest > 0 && <List.Item c="dimmed">{t('check.more', { count: rest })}</List.Item>}
            </List>
          </>
        )}
      </Stack>
    </Alert>
  );
}

import { Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Entry } from '../editor/save-queue';
import { useAnnotateT } from '../i18n';

/** Both versions of an image's labels side by side: the user keeps theirs (re-saved on top) or takes the server's. */
export function ConflictDialog({
  entry,
  url,
  task,
  classNames,
  onResolve,
}: {
  entry: Entry | undefined;
  url: string;
  task: string;
  classNames: string[];
  onResolve(choice: 'mine' | 'both' | 'theirs'): void;
}) {
  const { t } = useAnnotateT();
  const theirs = entry?.theirs;
  return (
    <Modal
      opened={!!theirs}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      size="lg"
      title={t('conflict.title')}
    >
      {theirs && entry && (
        <Stack data-testid="labels-conflict">
          <Text size="sm">{t('conflict.body', { revision: theirs.revision })}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Version
              title={t('conflict.mine', { count: entry.labels.length })}
              url={url}
              labels={entry.labels}
              className={entry.className}
              task={task}
              classNames={classNames}
              testId="conflict-mine"
            />
            <Version
              title={t('conflict.theirs', { count: theirs.labels.length })}
              url={url}
              labels={theirs.labels}
              className={theirs.className}
              task={task}
              classNames={classNames}
              testId="conflict-theirs"
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onResolve('theirs')}>
              {t('conflict.takeTheirs')}
            </Button>
            <Button variant="default" onClick={() => onResolve('mine')}>
              {t('conflict.keepMine')}
            </Button>
            <Button onClick={() => onResolve('both')}>{t('conflict.keepBoth')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function Version(props: { title: string; url: string; labels: number[][]; className: string | null; task: string; classNames: string[]; testId: string }) {
  const { title, url, labels, className, task, classNames, testId } = props;
  const names = task === 'classify' ? [className ?? '—'] : labels.map((row) => classNames[row[0] ?? 0] ?? String(row[0]));
  return (
    <Stack gap={4} data-testid={testId}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <div style={{ position: 'relative' }}>
        <img src={url} alt="" style={{ width: '100%', display: 'block' }} />
        {task !== 'classify' && (
          <svg viewBox="0 0 1 1" preserveAspectRatio="none" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} aria-hidden>
            {labels.map((row, i) => {
              const v = row.slice(1);
              if (task === 'segment')
                return (
                  <polygon
                    key={i}
                    points={pairs(v)
                      .map((q) => q.join(','))
                      .join(' ')}
                    fill="none"
                    stroke="#ff0"
                    strokeWidth={2}
                    vectorEffect="non-scaling-stroke"
                  />
                );
              const [cx = 0, cy = 0, w = 0, h = 0] = v;
              return (
                <rect key={i} x={cx - w / 2} y={cy - h / 2} width={w} height={h} fill="none" stroke="#ff0" strokeWidth={2} vectorEffect="non-scaling-stroke" />
              );
            })}
          </svg>
        )}
      </div>
      <Text size="xs" c="dimmed" lineClamp={3}>
        {names.join(', ')}
      </Text>
    </Stack>
  );
}

const pairs = (v: number[]) => {
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < v.length; i += 2) out.push([v[i]!, v[i + 1]!]);
  return out;
};

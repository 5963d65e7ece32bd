import { useEffect, useMemo, useRef } from 'react';
import { Box, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import type { ConsoleChunk } from '../../api/training-console';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Console text as a terminal would leave it: ANSI codes dropped, and for progress bars redrawn with
 * `\r` only the last state of the line kept.
 */
export function consoleLines(chunks: ConsoleChunk[]): string[] {
  const out: string[] = [];
  for (const chunk of chunks) {
    for (const raw of chunk.content.replace(ANSI, '').split('\n')) {
      const line =
        raw
          .split('\r')
          .filter((part) => part.length > 0)
          .at(-1) ?? '';
      if (line.trim().length) out.push(line.trimEnd());
    }
  }
  return out;
}

const MAX_LINES = 2000;

/** The client's console output, following the end while the reader is at the bottom. */
export function ConsoleLog({ chunks, maxHeight = 320 }: { chunks: ConsoleChunk[]; maxHeight?: number }) {
  const { t } = useTranslation(TRAINING_NS);
  const lines = useMemo(() => consoleLines(chunks), [chunks]);
  const shown = lines.length > MAX_LINES ? lines.slice(-MAX_LINES) : lines;
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [shown.length]);

  return (
    <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="sm" py={6} bg="var(--mantine-color-gray-1)">
        <Text size="sm" fw={600}>
          {t('console.title')}
        </Text>
        <Text size="xs" c="dimmed">
          {lines.length > MAX_LINES ? t('console.countTrimmed', { count: lines.length, shown: MAX_LINES }) : t('console.count', { count: lines.length })}
        </Text>
      </Group>
      <Box
        ref={box}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        tabIndex={0}
        role="log"
        aria-label={t('console.title')}
        data-testid="training-console"
        style={{
          maxHeight,
          minHeight: 64,
          overflow: 'auto',
          background: '#101113',
          color: '#e9ecef',
          fontFamily: 'var(--mantine-font-family-monospace)',
          fontSize: 12,
          lineHeight: 1.5,
          padding: '8px 12px',
          whiteSpace: 'pre',
        }}
      >
        {shown.length ? shown.join('\n') : <span style={{ color: '#909296' }}>{t('console.empty')}</span>}
      </Box>
    </Paper>
  );
}

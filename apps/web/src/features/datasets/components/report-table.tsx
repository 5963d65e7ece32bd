import { useMemo, useState } from 'react';
import { Badge, Button, Center, Code, Group, Pagination, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import type { DatasetReport } from '@sightline/contracts';
import { useDatasetsT } from '../i18n';

export const REPORT_ROWS_PER_PAGE = 100;

type Severity = 'error' | 'warning' | 'left-out';
interface Row {
  severity: Severity;
  /** Left-out rows: the image of the pair (ADR 0029); `file` is then the file at fault. */
  image?: string;
  file?: string;
  line?: number;
  code: string;
  message: string;
}

/**
 * The per-file, per-line processing report (product notes #1): errors then warnings, filtered by
 * severity and by text (file, code or message), with the plain-text download.
 */
export function ReportTable({ report, downloadUrl, downloadName }: { report: DatasetReport; downloadUrl?: string; downloadName?: string }) {
  const { t } = useDatasetsT();
  const [severity, setSeverity] = useState<'all' | Severity>('all');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);

  const leftOut = report.leftOut ?? [];
  const leftOutCount = report.leftOutCount ?? leftOut.length;
  const rows = useMemo<Row[]>(
    () => [
      ...report.errors.map((e) => ({ ...e, severity: 'error' as const })),
      ...(report.leftOut ?? []).map((l) => ({ ...l, severity: 'left-out' as const })),
      ...report.warnings.map((w) => ({ ...w, severity: 'warning' as const })),
    ],
    [report],
  );
  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return rows.filter(
      (r) =>
        (severity === 'all' || r.severity === severity) &&
        (!q || `${r.image ?? ''} ${r.file ?? ''}:${r.line ?? ''} ${r.code} ${r.message}`.toLowerCase().includes(q)),
    );
  }, [rows, severity, query]);
  const pages = Math.max(1, Math.ceil(filtered.length / REPORT_ROWS_PER_PAGE));
  const current = Math.min(page, pages);
  const shown = filtered.slice((current - 1) * REPORT_ROWS_PER_PAGE, current * REPORT_ROWS_PER_PAGE);

  return (
    <Stack gap="sm" data-testid="report">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap" maw="100%">
          {/* Four choices do not fit 390 px: they scroll inside their own box, the page never sideways. */}
          <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
            <SegmentedControl
              value={severity}
              onChange={(v) => {
                setSeverity(v as 'all' | Severity);
                setPage(1);
              }}
              aria-label={t('report.severity')}
              data={[
                { value: 'all', label: t('report.all', { count: report.errorCount + report.warningCount + leftOutCount }) },
                { value: 'error', label: t('report.errors', { count: report.errorCount }) },
                ...(leftOutCount > 0 ? [{ value: 'left-out', label: t('report.leftOut', { count: leftOutCount }) }] : []),
                { value: 'warning', label: t('report.warnings', { count: report.warningCount }) },
              ]}
            />
          </div>
          <TextInput
            value={query}
            onChange={(e) => {
              setQuery(e.currentTarget.value);
              setPage(1);
            }}
            placeholder={t('report.filterPlaceholder')}
            aria-label={t('report.filter')}
            leftSection={<IconSearch size={14} aria-hidden />}
            w={280}
          />
        </Group>
        {downloadUrl && (
          <Button component="a" href={downloadUrl} download={downloadName ?? true} variant="default" leftSection={<IconDownload size={16} aria-hidden />}>
            {t('report.download')}
          </Button>
        )}
      </Group>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="xs" highlightOnHover withTableBorder aria-label={t('report.table')} data-testid="report-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={100}>{t('report.colSeverity')}</Table.Th>
              <Table.Th w={240}>{t('report.colFile')}</Table.Th>
              <Table.Th w={60} ta="right">
                {t('report.colLine')}
              </Table.Th>
              <Table.Th w={180}>{t('report.colCode')}</Table.Th>
              <Table.Th>{t('report.colMessage')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((r, i) => (
              <Table.Tr key={`${r.severity}${i}${r.file}${r.line}`} data-testid="report-row" data-severity={r.severity} data-image={r.image}>
                <Table.Td>
                  <Badge size="sm" variant="light" color={r.severity === 'error' ? '#c02626' : r.severity === 'left-out' ? '#6b21a8' : '#a34a00'}>
                    {t(r.severity === 'left-out' ? 'report.leftOutBadge' : `report.${r.severity}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {r.image ?? r.file ?? t('report.dataset')}
                  </Text>
                  {r.image && r.file && r.file !== r.image && (
                    <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {r.file}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" ff="monospace">
                    {r.line ?? ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Code>{r.code}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {r.message}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
            {shown.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    {rows.length === 0 ? t('report.clean') : t('report.noMatch')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed" aria-live="polite">
          {t('report.showing', { shown: filtered.length, total: rows.length })}
          {report.omittedErrors + report.omittedWarnings > 0 && ` ${t('report.omitted', { errors: report.omittedErrors, warnings: report.omittedWarnings })}`}
          {(report.omittedLeftOut ?? 0) > 0 && ` ${t('report.leftOutOmitted', { count: report.omittedLeftOut })}`}
        </Text>
        {pages > 1 && (
          <Center>
            <Pagination size="sm" total={pages} value={current} onChange={setPage} />
          </Center>
        )}
      </Group>
    </Stack>
  );
}

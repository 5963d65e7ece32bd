import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { Dataset } from '@sightline/contracts';
import { datasetReportTextUrl, useDatasetReport } from '../api/get-dataset-report';
import { useDatasetsT } from '../i18n';
import { ReportTable } from './report-table';

/** Errors & warnings: what processing found, per file and line, with the verdict on top. */
export function ReportTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const query = useDatasetReport(dataset.id, !!dataset.report || dataset.status === 'Failed');
  if (!dataset.report && dataset.status !== 'Failed') {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('report.none')}
      </Text>
    );
  }
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('report.loading')} />
      </Center>
    );
  }
  const report = query.data;
  const base = (dataset.storage.filename ?? dataset.slug).replace(/\.(zip|tar)$/i, '');
  return (
    <Stack gap="md">
      {dataset.status === 'Failed' ? (
        report?.errorCount ? (
          <Text size="sm" data-testid="report-verdict">
            {t('report.failedBody', { count: report.errorCount })}
          </Text>
        ) : null
      ) : report ? (
        <Alert
          color={report.warningCount ? 'yellow' : 'green'}
          variant="light"
          icon={<IconCircleCheck size={18} />}
          title={t('report.passedTitle')}
          data-testid="report-verdict"
        >
          {report.warningCount ? t('report.passedWarnings', { count: report.warningCount }) : t('report.passedClean')}
        </Alert>
      ) : null}
      {report && (report.leftOutCount ?? 0) > 0 && (
        <Alert color="grape" variant="light" title={t('report.leftOutTitle', { count: report.leftOutCount })} data-testid="report-left-out">
          {t('report.leftOutBody')}
        </Alert>
      )}
      {report && <ReportTable report={report} downloadUrl={datasetReportTextUrl(dataset.id)} downloadName={`${base}-report.txt`} />}
    </Stack>
  );
}

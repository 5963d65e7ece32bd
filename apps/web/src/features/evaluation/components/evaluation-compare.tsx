import { useMemo, useState } from 'react';
import { Card, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import type { Evaluation } from '@sightline/contracts';
import { ZoomChart } from '../../../components/zoom-chart';
import { useProjectEvaluations } from '../api/get-project-evaluations';
import { useEvaluationT } from '../i18n';
import { COLORS, curveOption } from './eval-charts';
import { asDetection, isClassification } from './evaluation-results';

type Compared = Evaluation & { modelName: string };
const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
const groupKey = (e: Pick<Evaluation, 'dataset' | 'split'>) => `${e.dataset.id}:${e.split}`;

/**
 * Two or more models evaluated on the same dataset split, side by side: a metrics table and their
 * overall PR curves overlaid. Takes evaluations of any origin (the project page passes its models').
 */
export function EvaluationCompare({ evaluations }: { evaluations: Compared[] }) {
  const { t } = useEvaluationT();
  const groups = useMemo(() => {
    const by = new Map<string, Compared[]>();
    for (const e of evaluations) by.set(groupKey(e), [...(by.get(groupKey(e)) ?? []), e]);
    return [...by.entries()].filter(([, list]) => list.length >= 2);
  }, [evaluations]);
  const [picked, setPicked] = useState<string | null>(null);
  const current = groups.find(([k]) => k === picked) ?? groups[0];
  const rows = useMemo(() => current?.[1] ?? [], [current]);
  const classify = rows.some((e) => isClassification(e.result));
  const option = useMemo(() => {
    const curves = rows.flatMap((e, i) => {
      const d = asDetection(e.result);
      const mean = d?.box.curves.pr.find((c) => c.classId === null);
      return d && mean ? [{ name: `${e.modelName} ${d.box.mAP50.toFixed(3)}`, y: mean.y, color: COLORS[i % COLORS.length], x: d.box.curves.x }] : [];
    });
    return curves.length ? curveOption({ x: curves[0]!.x, xName: t('curves.recallAxis'), yName: t('curves.precisionAxis'), series: curves }) : null;
  }, [rows, t]);

  if (!current) {
    return (
      <Text size="sm" c="dimmed" data-testid="eval-compare-empty">
        {t('compare.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="md" data-testid="eval-compare">
      {groups.length === 1 ? (
        <Text fw={600} size="sm" data-testid="eval-compare-group">
          {t('historyRow', { dataset: rows[0]!.dataset.name, split: t(`splits.${rows[0]!.split}`) })}
        </Text>
      ) : (
        <Select
          label={t('compare.group')}
          data={groups.map(([k, list]) => ({ value: k, label: t('historyRow', { dataset: list[0]!.dataset.name, split: t(`splits.${list[0]!.split}`) }) }))}
          value={current[0]}
          onChange={setPicked}
          allowDeselect={false}
          w={{ base: '100%', sm: 320 }}
        />
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder data-testid="eval-compare-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('compare.model')}</Table.Th>
              {classify ? (
                <>
                  <Table.Th ta="right">{t('summary.top1')}</Table.Th>
                  <Table.Th ta="right">{t('summary.top5')}</Table.Th>
                </>
              ) : (
                <>
                  <Table.Th ta="right">{t('table.precision')}</Table.Th>
                  <Table.Th ta="right">{t('table.recall')}</Table.Th>
                  <Table.Th ta="right">{t('table.mAP50')}</Table.Th>
                  <Table.Th ta="right">{t('table.mAP50_95')}</Table.Th>
                </>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((e) => {
              const d = asDetection(e.result);
              const c = isClassification(e.result) ? e.result : null;
              return (
                <Table.Tr key={e.id}>
                  <Table.Td>{e.modelName}</Table.Td>
                  {c ? (
                    <>
                      <Table.Td ta="right">{fmt(c.top1)}</Table.Td>
                      <Table.Td ta="right">{fmt(c.top5)}</Table.Td>
                    </>
                  ) : (
                    <>
                      <Table.Td ta="right">{fmt(d?.box.precision)}</Table.Td>
                      <Table.Td ta="right">{fmt(d?.box.recall)}</Table.Td>
                      <Table.Td ta="right">{fmt(d?.box.mAP50)}</Table.Td>
                      <Table.Td ta="right">{fmt(d?.box.mAP50_95)}</Table.Td>
                    </>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {option && (
        <Paper withBorder radius="md" p="sm" data-testid="eval-compare-pr">
          <Text fw={600} size="sm" mb={4}>
            {t('compare.pr')}
          </Text>
          <ZoomChart option={option} height={300} aria-label={t('compare.pr')} />
        </Paper>
      )}
    </Stack>
  );
}

/** The project page's compare section: the newest completed evaluation of each of its models per dataset split. */
export function ProjectEvaluationsCompare({ projectId }: { projectId: string }) {
  const { t } = useEvaluationT();
  const { data } = useProjectEvaluations(projectId);
  if (!data) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={t('compare.title')} data-testid="project-eval-compare">
      <Stack gap="sm">
        <Title order={3}>{t('compare.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('compare.intro')}
        </Text>
        <EvaluationCompare evaluations={data.results} />
      </Stack>
    </Card>
  );
}

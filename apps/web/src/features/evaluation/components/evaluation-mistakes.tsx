import { useMemo, useState } from 'react';
import { Anchor, Badge, Box, Center, Chip, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { EVALUATION_MISTAKE_KINDS, type Evaluation, type EvaluationBox, type EvaluationMistake, type EvaluationMistakeKind } from '@sightline/contracts';
import { ImageLightbox, type PredictionBox } from '../../datasets';
import { useEvaluationMistakes } from '../api/get-evaluation-mistakes';
import { useEvaluationT } from '../i18n';

/** A prediction in pixels as the lightbox draws it: normalised to the image. */
function toOverlay(m: EvaluationMistake, p: EvaluationBox, name: string): PredictionBox | null {
  const w = m.image.width;
  const h = m.image.height;
  if (!w || !h) return null;
  const [x1, y1, x2, y2] = p.box;
  const points =
    p.polygon && p.polygon.length >= 6
      ? Array.from({ length: p.polygon.length / 2 }, (_, i) => [p.polygon![2 * i]! / w, p.polygon![2 * i + 1]! / h] as [number, number])
      : undefined;
  return {
    cls: p.classId,
    name,
    confidence: p.confidence ?? m.confidence,
    x: x1 / w,
    y: y1 / h,
    w: (x2 - x1) / w,
    h: (y2 - y1) / h,
    ...(points ? { points } : {}),
  };
}

/** The images that matter: the most confident false positives, misses and wrong classes per class, opening in the dataset lightbox. */
export function EvaluationMistakes({ evaluation, task }: { evaluation: Evaluation; task: string }) {
  const { t } = useEvaluationT();
  const [kind, setKind] = useState<EvaluationMistakeKind>('fp');
  const [classId, setClassId] = useState<number | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const { data, isLoading } = useEvaluationMistakes(evaluation.id, kind, classId);
  const names = evaluation.classNames;
  const className = (id: number) => names[id] ?? String(id);
  const mistakes = useMemo(() => data?.results ?? [], [data]);
  const images = useMemo(() => mistakes.map((m) => m.image), [mistakes]);
  const overlays = useMemo(
    () =>
      mistakes.map((m) =>
        m.prediction ? [toOverlay(m, m.prediction, className(m.prediction.classId))].filter((b): b is PredictionBox => b !== null) : undefined,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- className reads only `names`
    [mistakes, names],
  );
  const classOptions = [{ value: '', label: t('mistakes.allClasses') }, ...names.map((n, i) => ({ value: String(i), label: n }))];
  const caption = (m: EvaluationMistake) =>
    t(`mistakes.caption.${m.kind}`, { name: m.className, confidence: m.confidence.toFixed(2), predicted: m.prediction ? className(m.prediction.classId) : '' });

  return (
    <Stack gap="sm" data-testid="eval-mistakes">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={4}>{t('mistakes.title')}</Title>
        {/* The annotation editor's "model and labels disagree" filter lists these images to fix (ADR 0039). */}
        <Anchor
          component={Link}
          to={`/datasets/${encodeURIComponent(evaluation.dataset.id)}/annotate?filter=disagree&evaluation=${encodeURIComponent(evaluation.id)}`}
          size="sm"
          data-testid="eval-review-in-editor"
        >
          {t('mistakes.reviewInEditor')}
        </Anchor>
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Chip.Group
          multiple={false}
          value={kind}
          onChange={(v) => {
            setKind(v as EvaluationMistakeKind);
            setOpen(null);
          }}
        >
          <Group gap="xs" wrap="wrap" data-testid="eval-mistake-kind">
            {EVALUATION_MISTAKE_KINDS.map((k) => (
              <Chip key={k} value={k} variant="outline">
                {t(`mistakes.kind.${k}`)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        <Select
          label={t('mistakes.classFilter')}
          data={classOptions}
          value={classId === null ? '' : String(classId)}
          onChange={(v) => setClassId(v ? Number(v) : null)}
          allowDeselect={false}
          w={200}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {isLoading ? (
        <Center h={120}>
          <Loader size="sm" />
        </Center>
      ) : mistakes.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('mistakes.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, md: 6 }} spacing="sm">
          {mistakes.map((m, i) => (
            <UnstyledButton key={`${m.image.id}-${i}`} onClick={() => setOpen(i)} data-testid="eval-mistake" aria-label={caption(m)}>
              <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
                <Box h={110} style={{ background: 'var(--mantine-color-dark-8)' }}>
                  {m.image.thumbUrl && (
                    <img src={m.image.thumbUrl} alt="" loading="lazy" style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} />
                  )}
                </Box>
                <Stack gap={2} p={6}>
                  <Badge size="sm" variant="light" styles={{ root: { textTransform: 'none' } }}>
                    {m.kind === 'wrong' && m.prediction ? `${className(m.prediction.classId)} → ${m.className}` : m.className}
                  </Badge>
                  <Text size="xs" c="dimmed">
                    {t('mistakes.confidence', { value: m.confidence.toFixed(2) })}
                  </Text>
                </Stack>
              </Paper>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
      <ImageLightbox
        images={images}
        index={open}
        onIndex={setOpen}
        task={task}
        classNames={data?.datasetClassNames ?? []}
        predictions={overlays}
        caption={(i) =>
          mistakes[i] ? (
            <Stack gap={2}>
              <Text size="sm" data-testid="eval-lightbox-caption">
                {caption(mistakes[i])}
              </Text>
              <Text size="xs" c="dimmed">
                {t('mistakes.legend')}
              </Text>
            </Stack>
          ) : null
        }
      />
    </Stack>
  );
}

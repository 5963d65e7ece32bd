import { useMemo, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Center, Group, Loader, Paper, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowRight, IconX } from '@tabler/icons-react';
import type { Dataset, DatasetImage } from '@sightline/contracts';
import { EChart } from '../../../components/echart';
import { useDatasetDiff, type DatasetDiff, type DiffImage, type DiffPair, type DiffSide } from '../api/get-dataset-diff';
import type { DatasetVersion } from '../api/get-dataset-versions';
import { useDatasetsT } from '../i18n';
import { ImageLightbox } from './image-lightbox';
import { DiffTile } from './diff-tile';

/** Tiles a diff section shows before "Show all". */
export const DIFF_TILES = 12;
const FROM_COLOR = '#868e96';
const TO_COLOR = '#1a64f3';

/** A gain or loss in the histogram, readable on striped rows in both schemes (WCAG AA; Mantine's green-9 is 4.3:1 on white): dark shades in light, light in dark. */
const changeColor = (hue: 'green' | 'red') =>
  hue === 'green' ? 'light-dark(#1e6b34, var(--mantine-color-green-4))' : 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';

const asLightboxImage = (image: DiffImage, labels: number[][] | undefined = image.labels): DatasetImage => ({
  id: image.id,
  name: image.name,
  split: image.split,
  width: image.width ?? null,
  height: image.height ?? null,
  className: image.className ?? null,
  labels: labels ?? [],
  thumbUrl: image.thumbUrl ?? null,
  url: image.url ?? image.thumbUrl ?? '',
});

/** Class names per index, with every name the histogram knows (classes added since) at the end. */
export function histogramRows(diff: Pick<DatasetDiff, 'histogram'>): Array<{ name: string; from: number; to: number }> {
  const names = [...new Set([...Object.keys(diff.histogram.from), ...Object.keys(diff.histogram.to)])];
  return names.map((name) => ({ name, from: diff.histogram.from[name] ?? 0, to: diff.histogram.to[name] ?? 0 }));
}

/**
 * What changed between two versions, or a version and the working state (ADR 0038): images added, removed and moved
 * between splits, labels changed (boxes before and after, in the dataset lightbox), classes renamed, added and removed,
 * and the class histogram of both sides.
 */
export function VersionDiff({
  dataset,
  versions,
  from,
  to,
  onChange,
}: {
  dataset: Dataset;
  versions: DatasetVersion[];
  from: number;
  to: DiffSide;
  onChange: (diff: DiffPair | null) => void;
}) {
  const { t } = useDatasetsT();
  const query = useDatasetDiff(dataset.id, from, to);
  const diff = query.data;
  const sideName = (side: DiffSide) => (side === 'working' ? t('diff.working') : t('versions.number', { number: side }));
  const versionOptions = versions.map((v) => ({
    value: String(v.number),
    label: v.note ? `${t('versions.number', { number: v.number })} · ${v.note}` : sideName(v.number),
  }));
  // The older side is a version; the newer one a version or the working state.
  const toOptions = [{ value: 'working', label: t('diff.working') }, ...versionOptions];
  const parse = (value: string | null): DiffSide | null => (value === null ? null : value === 'working' ? 'working' : Number(value));
  const classesOf = (side: DiffSide) =>
    side === 'working' ? (dataset.stats?.classes ?? []) : (versions.find((v) => v.number === side)?.classes ?? dataset.stats?.classes ?? []);

  return (
    <Paper withBorder radius="md" p="md" data-testid="version-diff">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Group gap="xs" align="flex-end" wrap="wrap" style={{ flex: '1 1 280px' }}>
            <Select
              label={t('diff.from')}
              data={versionOptions}
              value={String(from)}
              onChange={(v) => {
                const next = parse(v);
                if (typeof next === 'number') onChange({ from: next, to });
              }}
              allowDeselect={false}
              w={{ base: '100%', xs: 220 }}
              data-testid="diff-from"
            />
            <IconArrowRight size={18} aria-hidden style={{ marginBottom: 9 }} />
            <Select
              label={t('diff.to')}
              data={toOptions}
              value={String(to)}
              onChange={(v) => {
                const next = parse(v);
                if (next !== null) onChange({ from, to: next });
              }}
              allowDeselect={false}
              w={{ base: '100%', xs: 220 }}
              data-testid="diff-to"
            />
          </Group>
          <ActionIcon variant="subtle" color="gray" onClick={() => onChange(null)} aria-label={t('diff.close')}>
            <IconX size={18} />
          </ActionIcon>
        </Group>
        {from === to ? (
          <Text c="dimmed" size="sm">
            {t('diff.same')}
          </Text>
        ) : query.isPending ? (
          <Center py="lg">
            <Loader aria-label={t('diff.loading')} />
          </Center>
        ) : query.isError || !diff ? (
          <Text c="red" size="sm">
            {t('diff.failed')}
          </Text>
        ) : (
          <DiffBody
            diff={diff}
            task={dataset.task}
            fromName={sideName(from)}
            toName={sideName(to)}
            fromClasses={classesOf(from)}
            toClasses={classesOf(to)}
            stale={query.isPlaceholderData}
          />
        )}
      </Stack>
    </Paper>
  );
}

function DiffBody({
  diff,
  task,
  fromName,
  toName,
  fromClasses,
  toClasses,
  stale,
}: {
  diff: DatasetDiff;
  task: string;
  fromName: string;
  toName: string;
  fromClasses: string[];
  toClasses: string[];
  stale: boolean;
}) {
  const { t } = useDatasetsT();
  // One lightbox for the whole diff: the images it steps through and, per image, a caption (before / after, moved).
  const [box, setBox] = useState<{ images: DatasetImage[]; captions: ReactNode[]; classNames: string[]; index: number } | null>(null);
  const counts = [
    { key: 'added', n: diff.added.length, color: 'green' },
    { key: 'removed', n: diff.removed.length, color: 'red' },
    { key: 'moved', n: diff.moved.length, color: 'blue' },
    { key: 'labelsChanged', n: diff.labelsChanged.length, color: 'orange' },
    { key: 'classesRenamed', n: diff.classesRenamed.length, color: 'grape' },
  ];
  const nothing = counts.every((c) => c.n === 0) && diff.classesAdded.length === 0 && diff.classesRemoved.length === 0;
  const openList = (images: DiffImage[], classNames: string[], index: number, caption?: (image: DiffImage) => ReactNode) =>
    setBox({ images: images.map((i) => asLightboxImage(i)), captions: images.map((i) => caption?.(i) ?? null), classNames, index });

  return (
    <Stack gap="lg" style={{ opacity: stale ? 0.6 : 1 }}>
      <Group gap={6} wrap="wrap" data-testid="diff-summary">
        {counts.map((c) => (
          <Badge key={c.key} variant={c.n ? 'light' : 'outline'} color={c.n ? c.color : 'gray'} styles={{ root: { textTransform: 'none' } }}>
            {t(`diff.count.${c.key}`, { count: c.n })}
          </Badge>
        ))}
      </Group>
      {nothing && (
        <Text c="dimmed" size="sm" data-testid="diff-nothing">
          {t('diff.nothing')}
        </Text>
      )}
      {(diff.classesRenamed.length > 0 || diff.classesAdded.length > 0 || diff.classesRemoved.length > 0) && (
        <Section title={t('diff.classes')} testId="diff-classes">
          {diff.classesRenamed.length > 0 && (
            <Table withTableBorder={false} verticalSpacing={4} data-testid="diff-renamed">
              <Table.Tbody>
                {diff.classesRenamed.map((r) => (
                  <Table.Tr key={r.index}>
                    <Table.Td w={48}>
                      <Text size="sm" c="dimmed">
                        {r.index}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="wrap">
                        <Text size="sm" td="line-through" c="dimmed">
                          {r.from}
                        </Text>
                        <IconArrowRight size={14} aria-label={t('diff.renamedTo')} />
                        <Text size="sm" fw={600}>
                          {r.to}
                        </Text>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {diff.classesAdded.length > 0 && (
            <Group gap={6} wrap="wrap">
              <Text size="sm">{t('diff.classesAdded')}</Text>
              {diff.classesAdded.map((c) => (
                <Badge key={c} color="green" variant="light" styles={{ root: { textTransform: 'none' } }}>
                  {c}
                </Badge>
              ))}
            </Group>
          )}
          {diff.classesRemoved.length > 0 && (
            <Group gap={6} wrap="wrap">
              <Text size="sm">{t('diff.classesRemoved')}</Text>
              {diff.classesRemoved.map((c) => (
                <Badge key={c} color="red" variant="light" styles={{ root: { textTransform: 'none' } }}>
                  {c}
                </Badge>
              ))}
            </Group>
          )}
        </Section>
      )}
      <ImagesSection
        title={t('diff.added', { count: diff.added.length })}
        testId="diff-added"
        images={diff.added}
        task={task}
        classNames={toClasses}
        onOpen={(i) => openList(diff.added, toClasses, i)}
      />
      <ImagesSection
        title={t('diff.removed', { count: diff.removed.length })}
        testId="diff-removed"
        images={diff.removed}
        task={task}
        classNames={fromClasses}
        onOpen={(i) => openList(diff.removed, fromClasses, i)}
      />
      <ImagesSection
        title={t('diff.moved', { count: diff.moved.length })}
        testId="diff-moved"
        images={diff.moved.map((m) => m.image)}
        task={task}
        classNames={toClasses}
        caption={(i) =>
          `${t(`splits.${diff.moved[i]!.fromSplit}`, { defaultValue: diff.moved[i]!.fromSplit })} → ${t(`splits.${diff.moved[i]!.toSplit}`, { defaultValue: diff.moved[i]!.toSplit })}`
        }
        onOpen={(i) =>
          openList(
            diff.moved.map((m) => m.image),
            toClasses,
            i,
          )
        }
      />
      {diff.labelsChanged.length > 0 && (
        <Section title={t('diff.labelsChanged', { count: diff.labelsChanged.length })} testId="diff-labels">
          <LabelChanges
            changes={diff.labelsChanged}
            task={task}
            fromName={fromName}
            toName={toName}
            fromClasses={fromClasses}
            toClasses={toClasses}
            onOpen={(i, after) => {
              const images: DatasetImage[] = [];
              const captions: ReactNode[] = [];
              for (const c of diff.labelsChanged) {
                images.push(asLightboxImage(c.image, c.before), asLightboxImage(c.image, c.after));
                captions.push(<SideCaption side={fromName} key="b" />, <SideCaption side={toName} after key="a" />);
              }
              // Before and after share one class list when nothing was renamed; otherwise each side names its own classes.
              setBox({ images, captions, classNames: after ? toClasses : fromClasses, index: i * 2 + (after ? 1 : 0) });
            }}
          />
        </Section>
      )}
      <Section title={t('diff.histogram')} testId="diff-histogram">
        <Histogram diff={diff} fromName={fromName} toName={toName} />
      </Section>
      <ImageLightbox
        images={box?.images ?? []}
        index={box ? box.index : null}
        onIndex={(i) => setBox((prev) => (prev && i !== null ? { ...prev, index: i } : null))}
        task={task}
        classNames={box?.classNames ?? []}
        caption={(i) => box?.captions[i] ?? null}
      />
    </Stack>
  );
}

function SideCaption({ side, after = false }: { side: string; after?: boolean }) {
  return (
    <Badge variant="filled" color={after ? 'blue' : 'gray'} styles={{ root: { textTransform: 'none' } }}>
      {side}
    </Badge>
  );
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={4} fz="sm">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function ImagesSection({
  title,
  testId,
  images,
  task,
  classNames,
  caption,
  onOpen,
}: {
  title: string;
  testId: string;
  images: DiffImage[];
  task: string;
  classNames: string[];
  caption?: (index: number) => string;
  onOpen: (index: number) => void;
}) {
  const { t } = useDatasetsT();
  const [all, setAll] = useState(false);
  if (images.length === 0) return null;
  const shown = all ? images : images.slice(0, DIFF_TILES);
  return (
    <Section title={title} testId={testId}>
      <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 6 }} spacing="sm">
        {shown.map((image, i) => (
          <DiffTile key={`${image.id}:${i}`} image={image} task={task} classNames={classNames} caption={caption?.(i)} onOpen={() => onOpen(i)} />
        ))}
      </SimpleGrid>
      {images.length > shown.length && (
        <Button variant="subtle" size="xs" onClick={() => setAll(true)} style={{ alignSelf: 'flex-start' }}>
          {t('diff.showAll', { count: images.length })}
        </Button>
      )}
    </Section>
  );
}

function LabelChanges({
  changes,
  task,
  fromName,
  toName,
  fromClasses,
  toClasses,
  onOpen,
}: {
  changes: DatasetDiff['labelsChanged'];
  task: string;
  fromName: string;
  toName: string;
  fromClasses: string[];
  toClasses: string[];
  onOpen: (index: number, after: boolean) => void;
}) {
  const { t } = useDatasetsT();
  const [all, setAll] = useState(false);
  const shown = all ? changes : changes.slice(0, DIFF_TILES / 2);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {shown.map((c, i) => (
          <Paper key={`${c.image.id}:${i}`} withBorder radius="md" p={6} data-testid="diff-label-change">
            <Text size="xs" fw={600} truncate title={c.image.name} mb={4}>
              {c.image.name}
            </Text>
            <SimpleGrid cols={2} spacing={6}>
              <DiffTile image={{ ...c.image, labels: c.before }} task={task} classNames={fromClasses} caption={fromName} onOpen={() => onOpen(i, false)} />
              <DiffTile image={{ ...c.image, labels: c.after }} task={task} classNames={toClasses} caption={toName} onOpen={() => onOpen(i, true)} />
            </SimpleGrid>
          </Paper>
        ))}
      </SimpleGrid>
      {changes.length > shown.length && (
        <Button variant="subtle" size="xs" onClick={() => setAll(true)} style={{ alignSelf: 'flex-start' }}>
          {t('diff.showAll', { count: changes.length })}
        </Button>
      )}
    </>
  );
}

function Histogram({ diff, fromName, toName }: { diff: DatasetDiff; fromName: string; toName: string }) {
  const { t } = useDatasetsT();
  const rows = useMemo(() => histogramRows(diff), [diff]);
  const option = useMemo(
    () => ({
      aria: { enabled: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { bottom: 0 },
      grid: { left: 8, right: 24, top: 8, bottom: 36, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: rows.map((r) => r.name), axisLabel: { width: 120, overflow: 'truncate' } },
      series: [
        { name: fromName, type: 'bar', barMaxWidth: 18, itemStyle: { color: FROM_COLOR }, data: rows.map((r) => r.from) },
        { name: toName, type: 'bar', barMaxWidth: 18, itemStyle: { color: TO_COLOR }, data: rows.map((r) => r.to) },
      ],
    }),
    [rows, fromName, toName],
  );
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('diff.noClasses')}
      </Text>
    );
  return (
    <Stack gap="xs">
      <EChart
        option={option}
        height={Math.max(160, rows.length * 44 + 60)}
        label={t('diff.histogramLabel', { from: fromName, to: toName })}
        testId="diff-histogram-chart"
      />
      <Table.ScrollContainer minWidth={280}>
        <Table striped withTableBorder verticalSpacing={4} fz="sm" data-testid="diff-histogram-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('diff.class')}</Table.Th>
              <Table.Th ta="right">{fromName}</Table.Th>
              <Table.Th ta="right">{toName}</Table.Th>
              <Table.Th ta="right">{t('diff.change')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.name}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td ta="right">{r.from.toLocaleString()}</Table.Td>
                <Table.Td ta="right">{r.to.toLocaleString()}</Table.Td>
                <Table.Td
                  ta="right"
                  c={r.to === r.from ? 'dimmed' : undefined}
                  style={r.to === r.from ? undefined : { color: changeColor(r.to > r.from ? 'green' : 'red') }}
                >
                  {r.to - r.from > 0 ? `+${(r.to - r.from).toLocaleString()}` : (r.to - r.from).toLocaleString()}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

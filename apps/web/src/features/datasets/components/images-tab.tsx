import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Center, Checkbox, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconCategory, IconPhotoOff, IconPhotoPlus, IconSelect } from '@tabler/icons-react';
import type { Dataset, DatasetImage } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { useDatasetImages } from '../api/get-dataset-images';
import { useDatasetsT } from '../i18n';
import { AddImagesDialog } from './add-images-dialog';
import { ClassesDialog } from './classes-dialog';
import { ImageLightbox } from './image-lightbox';
import { SelectionBar } from './selection-bar';
import { LabelOverlay } from './label-overlay';
import classes from './images-tab.module.css';

export const IMAGES_PER_PAGE = 48;
const SPLITS: Split[] = ['train', 'val', 'test'];

export function ImageTile({
  image,
  task,
  classNames,
  showSplit,
  onOpen,
  selected,
}: {
  image: DatasetImage;
  task: string;
  classNames: string[];
  showSplit: boolean;
  onOpen: () => void;
  /** In selection mode: whether the image is picked (a click toggles it instead of opening the lightbox). */
  selected?: boolean;
}) {
  const { t } = useDatasetsT();
  const [loaded, setLoaded] = useState(false);
  // Previews are made on first view; one that cannot be made (a damaged image) shows as having none.
  const [failed, setFailed] = useState(false);
  const ratio = image.width && image.height ? image.width / image.height : 1;
  return (
    <UnstyledButton
      className={classes.tile}
      onClick={onOpen}
      aria-label={selected === undefined ? t('images.open', { name: image.name }) : t('select.toggle', { name: image.name })}
      aria-pressed={selected}
      data-testid="image-tile"
      data-selected={selected || undefined}
    >
      <div className={classes.frame}>
        {image.thumbUrl && !failed ? (
          <div className={classes.fit} style={{ aspectRatio: ratio, ...(ratio >= 1 ? { width: '100%' } : { height: '100%' }) }}>
            {!loaded && <Skeleton pos="absolute" inset={0} radius={0} />}
            <img
              src={image.thumbUrl}
              alt=""
              loading="lazy"
              decoding="async"
              className={classes.thumb}
              onLoad={() => setLoaded(true)}
              onError={() => setFailed(true)}
            />
            {/* Labels only over a drawn image: boxes on an empty frame read as a broken page. */}
            {loaded && <LabelOverlay labels={image.labels} task={task} classNames={classNames} strokeWidth={1.5} />}
          </div>
        ) : (
          <Stack align="center" gap={4}>
            <ThemeIcon variant="light" color="gray" size="lg">
              <IconPhotoOff size={18} aria-hidden />
            </ThemeIcon>
            <Text size="xs" c="dimmed">
              {t('images.noThumb')}
            </Text>
          </Stack>
        )}
        {showSplit && (
          <Badge size="xs" variant="filled" color="dark" className={classes.split}>
            {t(`splits.${image.split}`, { defaultValue: image.split })}
          </Badge>
        )}
        {selected !== undefined && <Checkbox checked={selected} readOnly tabIndex={-1} aria-hidden className={classes.check} size="sm" />}
      </div>
      <Text size="xs" px={8} py={6} truncate title={image.name}>
        {image.name}
      </Text>
    </UnstyledButton>
  );
}

/**
 * Images by split, with their labels drawn on the thumbnails; keyset pages come from the server one after
 * another ("Load more", ADR 0042), so a page deep in a large dataset costs what the first does.
 */
export function ImagesTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const [split, setSplit] = useState<'all' | Split>('all');
  const [open, setOpen] = useState<number | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [editingClasses, setEditingClasses] = useState(false);
  const canEdit = dataset.abilities.canEdit;
  const stats = dataset.stats;
  const counts: Record<'all' | Split, number> = { all: stats?.images ?? 0, train: stats?.train ?? 0, val: stats?.val ?? 0, test: stats?.test ?? 0 };
  const query = useDatasetImages(dataset.id, { split: split === 'all' ? undefined : split, limit: IMAGES_PER_PAGE }, !!dataset.dates.processed);
  const results = useMemo(() => query.data?.pages.flatMap((p) => p.results) ?? [], [query.data]);
  // The first page carries the total (the dataset's statistics); the summary's counts until it comes.
  const total = query.data?.pages[0]?.total ?? counts[split];
  const classNames = stats?.classes ?? [];

  useEffect(() => setOpen(null), [split]);
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const stopSelecting = () => {
    setSelecting(false);
    setSelected(new Set());
  };

  const splitOptions = (['all', ...SPLITS] as const)
    .filter((s) => s === 'all' || counts[s] > 0)
    .map((s) => ({ value: s, label: `${t(s === 'all' ? 'images.all' : `splits.${s}`)} · ${counts[s].toLocaleString()}` }));

  return (
    <Stack gap="md">
      {canEdit && (
        <Group gap="xs" wrap="wrap" data-testid="image-edit-actions">
          <Button size="xs" leftSection={<IconPhotoPlus size={14} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-images">
            {t('images.add')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconCategory size={14} aria-hidden />}
            onClick={() => setEditingClasses(true)}
            data-testid="edit-classes"
          >
            {t('images.classes')}
          </Button>
          {!selecting && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconSelect size={14} aria-hidden />}
              onClick={() => setSelecting(true)}
              data-testid="select-images"
            >
              {t('images.select')}
            </Button>
          )}
        </Group>
      )}
      {selecting && (
        <SelectionBar
          dataset={dataset}
          selected={[...selected]}
          onSelectPage={() => setSelected((prev) => new Set([...prev, ...results.map((r) => r.id)]))}
          onClear={stopSelecting}
        />
      )}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          value={split}
          onChange={(v) => setSplit(v as 'all' | Split)}
          data={splitOptions}
          aria-label={t('images.split')}
          data-testid="split-filter"
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {total > 0 && results.length > 0 ? t('images.shown', { shown: results.length.toLocaleString(), total: total.toLocaleString() }) : ''}
        </Text>
      </Group>
      {query.isPending ? (
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 6 }} role="status" aria-label={t('images.loading')}>
          {Array.from({ length: 12 }, (_, i) => (
            <Skeleton key={i} height={160} radius="md" />
          ))}
        </SimpleGrid>
      ) : results.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('images.none')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3, sm: 4, lg: 6 }} spacing="sm" data-testid="image-grid">
          {results.map((image, i) => (
            <ImageTile
              key={image.id}
              image={image}
              task={dataset.task}
              classNames={classNames}
              showSplit={split === 'all'}
              onOpen={() => (selecting ? toggle(image.id) : setOpen(i))}
              selected={selecting ? selected.has(image.id) : undefined}
            />
          ))}
        </SimpleGrid>
      )}
      {query.hasNextPage && (
        <Center>
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="images-load-more">
            {t('images.loadMore')}
          </Button>
        </Center>
      )}
      <ImageLightbox images={results} index={open} onIndex={setOpen} task={dataset.task} classNames={classNames} />
      {canEdit && <AddImagesDialog dataset={dataset} opened={adding} onClose={() => setAdding(false)} />}
      {canEdit && <ClassesDialog dataset={dataset} opened={editingClasses} onClose={() => setEditingClasses(false)} />}
    </Stack>
  );
}

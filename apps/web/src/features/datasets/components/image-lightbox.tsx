import { useEffect, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Box, Center, Group, Loader, Modal, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { DatasetImage } from '@sightline/contracts';
import { useDatasetsT } from '../i18n';
import { classColor, labelShape, LabelOverlay, PredictionOverlay, type PredictionBox } from './label-overlay';

/**
 * The original image (served from the archive) with its labels and class names; arrows step through the page.
 * `predictions` (by image index) are a model's boxes drawn dashed over the solid labels, `caption` a line above the
 * image (an evaluation says why the image is listed).
 */
export function ImageLightbox({
  images,
  index,
  onIndex,
  task,
  classNames,
  predictions,
  caption,
}: {
  images: DatasetImage[];
  index: number | null;
  onIndex: (i: number | null) => void;
  task: string;
  classNames: string[];
  predictions?: Array<PredictionBox[] | undefined>;
  caption?: (index: number) => ReactNode;
}) {
  const { t } = useDatasetsT();
  const image = index !== null ? images[index] : undefined;
  const [showLabels, setShowLabels] = useState(true);
  const [loaded, setLoaded] = useState<string | null>(null);
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < images.length - 1;

  useEffect(() => {
    if (index === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' && hasPrev) onIndex(index - 1);
      if (event.key === 'ArrowRight' && hasNext) onIndex(index + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, hasPrev, hasNext, onIndex]);

  const counts = new Map<number, number>();
  for (const row of image?.labels ?? []) {
    const shape = labelShape(row, task);
    if (shape) counts.set(shape.cls, (counts.get(shape.cls) ?? 0) + 1);
  }
  const ratio = image?.width && image.height ? image.width / image.height : 1;

  return (
    <Modal
      opened={!!image}
      onClose={() => onIndex(null)}
      size="min(1100px, 96vw)"
      centered
      title={
        image ? (
          <Text fw={600} truncate>
            {image.name}
          </Text>
        ) : null
      }
      data-testid="lightbox"
    >
      {image && (
        <Stack gap="sm">
          {caption?.(index!)}
          <Group gap="sm" wrap="nowrap" align="center">
            <ActionIcon variant="default" size="lg" radius="xl" disabled={!hasPrev} onClick={() => onIndex(index! - 1)} aria-label={t('lightbox.previous')}>
              <IconChevronLeft size={18} />
            </ActionIcon>
            <Center style={{ flex: 1, minWidth: 0, background: 'var(--mantine-color-dark-8)', borderRadius: 8 }} h="min(70vh, 720px)" p="xs">
              <Box pos="relative" style={{ aspectRatio: ratio, maxWidth: '100%', maxHeight: '100%', ...(ratio >= 1 ? { width: '100%' } : { height: '100%' }) }}>
                {loaded !== image.url && (
                  <Center pos="absolute" inset={0}>
                    <Loader color="gray.3" aria-label={t('lightbox.loading')} />
                  </Center>
                )}
                <img
                  src={image.url}
                  alt={t('lightbox.alt', { name: image.name })}
                  onLoad={() => setLoaded(image.url)}
                  style={{ display: 'block', width: '100%', height: '100%' }}
                  data-testid="lightbox-image"
                />
                {showLabels && <LabelOverlay labels={image.labels} task={task} classNames={classNames} showNames strokeWidth={2} />}
                {showLabels && predictions?.[index!] && <PredictionOverlay boxes={predictions[index!]!} />}
              </Box>
            </Center>
            <ActionIcon variant="default" size="lg" radius="xl" disabled={!hasNext} onClick={() => onIndex(index! + 1)} aria-label={t('lightbox.next')}>
              <IconChevronRight size={18} />
            </ActionIcon>
          </Group>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap={6}>
              <Badge variant="light" color="gray">
                {t(`splits.${image.split}`, { defaultValue: image.split })}
              </Badge>
              {image.width && image.height && (
                <Text size="sm" c="dimmed">
                  {image.width} × {image.height}px
                </Text>
              )}
              {[...counts.entries()].map(([cls, n]) => (
                <Tooltip key={cls} label={t('lightbox.instances', { count: n })} withArrow>
                  <Badge variant="dot" color={classColor(cls)} styles={{ root: { textTransform: 'none' } }}>
                    {classNames[cls] ?? cls}
                    {task !== 'classify' ? ` × ${n}` : ''}
                  </Badge>
                </Tooltip>
              ))}
              {counts.size === 0 && (
                <Text size="sm" c="dimmed">
                  {t('lightbox.unlabelled')}
                </Text>
              )}
            </Group>
            <Group gap="md">
              <Switch size="sm" checked={showLabels} onChange={(e) => setShowLabels(e.currentTarget.checked)} label={t('lightbox.showLabels')} />
              <Text size="xs" c="dimmed">
                {t('lightbox.position', { n: index! + 1, total: images.length })}
              </Text>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

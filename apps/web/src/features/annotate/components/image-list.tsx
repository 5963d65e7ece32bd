import { useEffect, useRef, useState } from 'react';
import { Text, UnstyledButton } from '@mantine/core';
import type { DatasetImage } from '@sightline/contracts';
import { IMAGE_PAGE_SIZE } from '../api/get-image-page';
import { visibleRange } from '../editor/virtual-range';
import { useAnnotateT } from '../i18n';

export const ROW_HEIGHT = 56;

/**
 * The dataset's images as a virtual list: only the rows in view exist, and the parent fetches only their pages
 * (`onRange`), so 100,000 images cost a few pages of labels.
 */
export function ImageList({
  total,
  imageAt,
  current,
  onPick,
  onRange,
}: {
  total: number;
  imageAt(index: number): DatasetImage | undefined;
  current: number;
  onPick(index: number): void;
  onRange(range: { start: number; end: number }): void;
}) {
  const { t } = useAnnotateT();
  const ref = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const range = visibleRange(scroll.top, scroll.height, ROW_HEIGHT, total);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setScroll({ top: el.scrollTop, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // The current image stays in view as N/P step through the dataset.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const top = current * ROW_HEIGHT;
    if (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, top - el.clientHeight / 2);
  }, [current]);

  useEffect(() => onRange(range), [range.start, range.end]); // eslint-disable-line react-hooks/exhaustive-deps

  const rows = [];
  for (let i = range.start; i < range.end; i++) {
    const image = imageAt(i);
    rows.push(
      <UnstyledButton
        key={i}
        onClick={() => onPick(i)}
        data-testid="annotate-image-row"
        data-current={i === current || undefined}
        aria-current={i === current || undefined}
        style={{
          position: 'absolute',
          top: i * ROW_HEIGHT,
          left: 0,
          right: 0,
          height: ROW_HEIGHT,
          display: 'flex',
          gap: 8,
          alignItems: 'center',
          padding: '4px 8px',
          background: i === current ? 'var(--mantine-primary-color-light)' : undefined,
        }}
      >
        {image?.thumbUrl ? (
          <img src={image.thumbUrl} alt="" loading="lazy" style={{ width: 44, height: 44, objectFit: 'cover', borderRadius: 4, flex: 'none' }} />
        ) : (
          <div style={{ width: 44, height: 44, borderRadius: 4, background: 'var(--mantine-color-default-border)', flex: 'none' }} />
        )}
        <div style={{ minWidth: 0 }}>
          <Text size="sm" truncate>
            {image?.name ?? '…'}
          </Text>
          <Text size="xs" c="dimmed">
            {image ? (image.labels.length ? t('objects', { count: image.labels.length }) : (image.className ?? t('unlabelled'))) : ' '}
          </Text>
        </div>
      </UnstyledButton>,
    );
  }
  return (
    <div
      ref={ref}
      data-testid="annotate-image-list"
      data-page-size={IMAGE_PAGE_SIZE}
      onScroll={(e) => setScroll({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
      style={{ overflowY: 'auto', height: '100%', position: 'relative' }}
    >
      <div style={{ height: total * ROW_HEIGHT, position: 'relative' }}>{rows}</div>
    </div>
  );
}

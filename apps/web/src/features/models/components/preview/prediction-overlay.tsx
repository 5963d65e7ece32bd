import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import type { PredictResult } from '../../api/predict-model';
import { classColor, fitContain, placeLabels, textColorOn, toDisplayPoints, toDisplayRect, type Rect, type Size } from './overlay-geometry';

export const labelText = (r: Pick<PredictResult, 'name' | 'confidence'>) => `${r.name} ${r.confidence.toFixed(2)}`;

/**
 * The image with its detections drawn over it: boxes, labels and segment masks, scaled from the
 * image's pixels (`imageSize`, as the server measured it) to the size the image is displayed at.
 */
export function PredictionOverlay({
  src,
  alt,
  imageSize,
  results,
  maxHeight = 560,
  maxWidth = 720,
}: {
  src: string;
  alt: string;
  imageSize: Size | null;
  results: PredictResult[];
  maxHeight?: number;
  maxWidth?: number;
}) {
  const { t } = useTranslation(TRAINING_NS);
  const img = useRef<HTMLImageElement>(null);
  const [display, setDisplay] = useState<Size | null>(null);
  const [natural, setNatural] = useState<Size | null>(null);

  const measure = useCallback(() => {
    const el = img.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setDisplay((d) => (d && d.width === r.width && d.height === r.height ? d : { width: r.width, height: r.height }));
    if (el.naturalWidth)
      setNatural((n) => (n && n.width === el.naturalWidth && n.height === el.naturalHeight ? n : { width: el.naturalWidth, height: el.naturalHeight }));
  }, []);

  useEffect(() => {
    const el = img.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  const source = imageSize ?? natural;
  const fit = source && display ? fitContain(source, display) : null;
  const drawn = results.filter((r) => r.box || r.segments);
  const rects: Array<Rect | null> = fit ? drawn.map((r) => (r.box ? toDisplayRect(r.box, fit) : null)) : [];
  const order = rects
    .map((_, i) => i)
    .filter((i) => rects[i])
    .sort((a, b) => drawn[b]!.confidence - drawn[a]!.confidence);
  const tags = display
    ? placeLabels(
        order.map((i) => ({ rect: rects[i]!, text: labelText(drawn[i]!) })),
        display,
      )
    : [];
  const tagIndex = new Map(order.map((i, k) => [i, k]));

  return (
    // Small images are shown larger (boxes stay readable); a tall one is letterboxed by object-fit, which fitContain follows.
    <div style={{ position: 'relative', width: '100%', maxWidth, lineHeight: 0 }} data-testid="prediction-image">
      <img
        ref={img}
        src={src}
        alt={alt}
        onLoad={measure}
        style={{ display: 'block', width: '100%', height: 'auto', maxHeight, objectFit: 'contain', borderRadius: 4 }}
      />
      {fit && fit.scale > 0 && (
        <svg
          width={display!.width}
          height={display!.height}
          viewBox={`0 0 ${display!.width} ${display!.height}`}
          style={{ position: 'absolute', left: 0, top: 0, pointerEvents: 'none', overflow: 'visible' }}
          role="img"
          aria-label={t('preview.overlayLabel', { count: drawn.length })}
          data-testid="prediction-overlay"
        >
          {drawn.map((r, i) => {
            const color = classColor(r.class);
            const rect = rects[i];
            const text = labelText(r);
            const tag = rect ? tags[tagIndex.get(i)!] : null;
            return (
              <g key={i} data-testid="prediction-box" data-class={r.name} data-confidence={r.confidence}>
                <title>{text}</title>
                {r.segments && (
                  <polygon
                    points={toDisplayPoints(r.segments, fit)}
                    fill={color}
                    fillOpacity={0.35}
                    stroke={color}
                    strokeWidth={1.5}
                    data-testid="prediction-mask"
                  />
                )}
                {rect && <rect x={rect.x} y={rect.y} width={rect.width} height={rect.height} fill="none" stroke={color} strokeWidth={2} />}
                {tag && (
                  <>
                    <rect x={tag.x} y={tag.y} width={tag.width} height={tag.height} fill={color} />
                    <text
                      x={tag.x + 4}
                      y={tag.y + 13}
                      fontSize={12}
                      fontFamily="var(--mantine-font-family-monospace), monospace"
                      fill={textColorOn(color)}
                      data-testid="prediction-label"
                    >
                      {text}
                    </text>
                  </>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}

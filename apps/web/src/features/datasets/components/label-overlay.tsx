import { Badge } from '@mantine/core';

import { classColor } from '../../../lib/class-colors';

export { classColor };

export type LabelShape =
  | { kind: 'box'; cls: number; x: number; y: number; w: number; h: number; keypoints: Array<[number, number]> }
  | { kind: 'polygon'; cls: number; points: Array<[number, number]> }
  | { kind: 'class'; cls: number };

/**
 * Reads one label row (normalised, NDJSON form of the processing step): detect `[cls, cx, cy, w, h]`,
 * segment `[cls, x1, y1, ...]`, obb `[cls, x1, y1, ..., x4, y4]`, pose `[cls, cx, cy, w, h, kx, ky(, v)...]`,
 * classify `[cls]`.
 */
export function labelShape(row: number[], task: string): LabelShape | null {
  const [cls, ...v] = row;
  if (cls === undefined) return null;
  if (task === 'classify' || v.length === 0) return { kind: 'class', cls };
  const pairs = (values: number[]) => {
    const out: Array<[number, number]> = [];
    for (let i = 0; i + 1 < values.length; i += 2) out.push([values[i], values[i + 1]]);
    return out;
  };
  if (task === 'pose' && v.length > 4) {
    const rest = v.slice(4);
    const step = rest.length % 3 === 0 ? 3 : 2;
    const keypoints: Array<[number, number]> = [];
    for (let i = 0; i + 1 < rest.length; i += step) {
      if (step === 3 && rest[i + 2] === 0) continue; // not labelled
      if (rest[i] === 0 && rest[i + 1] === 0) continue;
      keypoints.push([rest[i], rest[i + 1]]);
    }
    return { kind: 'box', cls, x: v[0] - v[2] / 2, y: v[1] - v[3] / 2, w: v[2], h: v[3], keypoints };
  }
  if (v.length === 4 && task !== 'segment' && task !== 'semantic-segment')
    return { kind: 'box', cls, x: v[0] - v[2] / 2, y: v[1] - v[3] / 2, w: v[2], h: v[3], keypoints: [] };
  return { kind: 'polygon', cls, points: pairs(v) };
}

/**
 * Labels drawn over an image box of any size: an SVG in normalised coordinates stretched over the
 * image (strokes keep their width), class names as HTML so text is never distorted.
 */
export function LabelOverlay({
  labels,
  task,
  classNames,
  showNames = false,
  strokeWidth = 2,
}: {
  labels: number[][];
  task: string;
  classNames: string[];
  showNames?: boolean;
  strokeWidth?: number;
}) {
  const shapes = labels.map((row) => labelShape(row, task)).filter((s): s is LabelShape => s !== null);
  const name = (cls: number) => classNames[cls] ?? String(cls);
  const classes = shapes.filter((s) => s.kind === 'class');
  const drawn = shapes.filter((s) => s.kind !== 'class');
  return (
    <>
      {drawn.length > 0 && (
        <svg
          viewBox="0 0 1 1"
          preserveAspectRatio="none"
          aria-hidden
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none', overflow: 'visible' }}
          data-testid="label-overlay"
        >
          {drawn.map((s, i) =>
            s.kind === 'box' ? (
              <g key={i}>
                <rect
                  x={s.x}
                  y={s.y}
                  width={s.w}
                  height={s.h}
                  fill={classColor(s.cls)}
                  fillOpacity={0.12}
                  stroke={classColor(s.cls)}
                  strokeWidth={strokeWidth}
                  vectorEffect="non-scaling-stroke"
                  data-testid="label-box"
                />
                {s.keypoints.map(([x, y], k) => (
                  <line
                    key={k}
                    x1={x}
                    y1={y}
                    x2={x}
                    y2={y}
                    stroke={classColor(s.cls)}
                    strokeWidth={strokeWidth * 3}
                    strokeLinecap="round"
                    vectorEffect="non-scaling-stroke"
                  />
                ))}
              </g>
            ) : s.kind === 'polygon' ? (
              <polygon
                key={i}
                points={s.points.map(([x, y]) => `${x},${y}`).join(' ')}
                fill={classColor(s.cls)}
                fillOpacity={0.25}
                stroke={classColor(s.cls)}
                strokeWidth={strokeWidth}
                vectorEffect="non-scaling-stroke"
                data-testid="label-polygon"
              />
            ) : null,
          )}
        </svg>
      )}
      {showNames &&
        drawn.map((s, i) => {
          const [x, y] =
            s.kind === 'box' ? [s.x, s.y] : s.kind === 'polygon' ? [Math.min(...s.points.map((p) => p[0])), Math.min(...s.points.map((p) => p[1]))] : [0, 0];
          return (
            <span
              key={`n${i}`}
              style={{
                position: 'absolute',
                left: `${Math.max(0, x) * 100}%`,
                top: `${Math.max(0, y) * 100}%`,
                transform: y < 0.06 ? 'none' : 'translateY(-100%)',
                background: classColor(s.cls),
                color: '#fff',
                fontSize: 11,
                fontWeight: 600,
                lineHeight: '14px',
                padding: '0 4px',
                borderRadius: 2,
                whiteSpace: 'nowrap',
                pointerEvents: 'none',
                textShadow: '0 0 2px rgba(0,0,0,0.6)',
              }}
            >
              {name(s.cls)}
            </span>
          );
        })}
      {classes.length > 0 && (
        <Badge
          pos="absolute"
          left={6}
          bottom={6}
          size="sm"
          radius="sm"
          variant="filled"
          color={classColor(classes[0].cls)}
          style={{ pointerEvents: 'none' }}
          data-testid="label-class"
        >
          {classes.map((c) => name(c.cls)).join(', ')}
        </Badge>
      )}
    </>
  );
}

/** A model's prediction drawn over an image (normalised coordinates): dashed and unfilled, so it reads apart from the solid labels. */
export interface PredictionBox {
  cls: number;
  name: string;
  confidence: number;
  x: number;
  y: number;
  w: number;
  h: number;
  points?: Array<[number, number]>;
}

export function PredictionOverlay({ boxes, strokeWidth = 2 }: { boxes: PredictionBox[]; strokeWidth?: number }) {
  return (
    <>
      <svg
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        aria-hidden
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none', overflow: 'visible' }}
        data-testid="lightbox-predictions"
      >
        {boxes.map((b, i) => (
          <g key={i}>
            <rect
              x={b.x}
              y={b.y}
              width={b.w}
              height={b.h}
              fill="none"
              stroke="#000"
              strokeOpacity={0.6}
              strokeWidth={strokeWidth + 2}
              vectorEffect="non-scaling-stroke"
            />
            <rect
              x={b.x}
              y={b.y}
              width={b.w}
              height={b.h}
              fill="none"
              stroke={classColor(b.cls)}
              strokeWidth={strokeWidth}
              strokeDasharray="6 4"
              vectorEffect="non-scaling-stroke"
              data-testid="lightbox-prediction-box"
            />
            {b.points && (
              <polygon
                points={b.points.map(([x, y]) => `${x},${y}`).join(' ')}
                fill="none"
                stroke={classColor(b.cls)}
                strokeWidth={strokeWidth}
                strokeDasharray="2 3"
                vectorEffect="non-scaling-stroke"
              />
            )}
          </g>
        ))}
      </svg>
      {boxes.map((b, i) => (
        <span
          key={`p${i}`}
          style={{
            position: 'absolute',
            left: `${Math.max(0, b.x) * 100}%`,
            top: `${Math.min(1, b.y + b.h) * 100}%`,
            transform: b.y + b.h > 0.94 ? 'translateY(-100%)' : 'none',
            background: 'rgba(0,0,0,0.75)',
            color: '#fff',
            border: `1px dashed ${classColor(b.cls)}`,
            fontSize: 11,
            fontWeight: 600,
            lineHeight: '14px',
            padding: '0 4px',
            borderRadius: 2,
            whiteSpace: 'nowrap',
            pointerEvents: 'none',
          }}
        >
          {b.name} {b.confidence.toFixed(2)}
        </span>
      ))}
    </>
  );
}

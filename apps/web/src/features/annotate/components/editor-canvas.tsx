import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { classColor } from '../../../lib/class-colors';
import {
  boxFromCorners,
  clampPoint,
  fitView,
  hitTest,
  moveShape,
  panBy,
  pinch,
  toImage,
  viewTransform,
  zoomAt,
  type Point,
  type DrawnShape,
  type Shape,
  type View,
} from '../editor/geometry';

export type Tool = 'select' | 'box' | 'polygon' | 'keypoint';
export interface CanvasHandle {
  zoom(factor: number): void;
  fit(): void;
  /** The polygon being drawn, closed (Enter). */
  closePolygon(): void;
  cancelDraft(): void;
}

interface Props {
  ref?: Ref<CanvasHandle>;
  url: string;
  width: number;
  height: number;
  shapes: Shape[];
  suggestions: Shape[];
  selected: number;
  tool: Tool;
  showLabels: boolean;
  /** Space held: a drag pans instead of drawing. */
  panning: boolean;
  classNames: string[];
  onSelect(index: number): void;
  onAdd(shape: DrawnShape): void;
  onMove(index: number, shape: Shape): void;
  /** Moves done: one undo step for the whole drag. */
  onCommitMove(): void;
  onKeypoint(index: number, point: Point): void;
}

type Drag =
  | { kind: 'pan'; last: Point }
  | { kind: 'box'; start: Point; end: Point }
  | { kind: 'move'; index: number; last: Point; moved: boolean }
  | { kind: 'pinch'; last: [Point, Point] };

/**
 * The drawing surface: one SVG whose group carries the single view transform (ADR 0040), the image and every
 * label inside it in image pixels; strokes do not scale. Pointer events serve mouse, pen and touch alike
 * (two fingers pinch-zoom and pan).
 */
export function EditorCanvas(props: Props) {
  const { ref, url, width, height, shapes, suggestions, selected, tool, showLabels, panning, classNames } = props;
  const svgRef = useRef<SVGSVGElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const [view, setView] = useState<View>({ scale: 1, tx: 0, ty: 0 });
  const [drag, setDrag] = useState<Drag | null>(null);
  const [draft, setDraft] = useState<Array<[number, number]>>([]);
  const [hover, setHover] = useState<Point | null>(null);
  const pointers = useRef(new Map<number, Point>());
  const propsRef = useRef(props);
  propsRef.current = props;

  useEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const measure = () => setSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A new image (or a new viewport) starts fitted.
  useEffect(() => {
    if (size.w > 0 && size.h > 0) setView(fitView(width, height, size.w, size.h));
    setDraft([]);
  }, [url, width, height, size.w, size.h]);

  useImperativeHandle(ref, () => ({
    zoom: (factor) => setView((v) => zoomAt(v, factor, { x: size.w / 2, y: size.h / 2 })),
    fit: () => setView(fitView(width, height, size.w, size.h)),
    closePolygon: () => {
      if (draft.length >= 3) propsRef.current.onAdd({ kind: 'polygon', points: draft });
      setDraft([]);
    },
    cancelDraft: () => setDraft([]),
  }));

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      setView((v) => zoomAt(v, Math.exp(-e.deltaY * 0.0015), { x: e.clientX - r.left, y: e.clientY - r.top }));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const local = (e: { clientX: number; clientY: number }): Point => {
    const r = svgRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const imagePoint = (screen: Point) => toImage(view, screen);

  const onPointerDown = (e: React.PointerEvent<SVGSVGElement>) => {
    svgRef.current?.setPointerCapture?.(e.pointerId);
    const p = local(e);
    pointers.current.set(e.pointerId, p);
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      setDrag({ kind: 'pinch', last: [a, b] });
      return;
    }
    if (pointers.current.size > 2) return;
    if (panning || e.button === 1) {
      setDrag({ kind: 'pan', last: p });
      return;
    }
    if (e.button !== 0) return;
    const ip = imagePoint(p);
    if (tool === 'box') {
      const start = clampPoint(ip, width, height);
      setDrag({ kind: 'box', start, end: start });
    } else if (tool === 'polygon') {
      const q = clampPoint(ip, width, height);
      const first = draft[0];
      // A click on the first point (within 8 screen pixels) closes the polygon.
      if (first && draft.length >= 3 && Math.hypot((first[0] - q.x) * view.scale, (first[1] - q.y) * view.scale) < 8) {
        props.onAdd({ kind: 'polygon', points: draft });
        setDraft([]);
      } else setDraft((d) => [...d, [q.x, q.y]]);
    } else if (tool === 'keypoint') {
      if (selected >= 0) props.onKeypoint(selected, clampPoint(ip, width, height));
    } else {
      const hit = hitTest(shapes, ip, 4 / view.scale);
      props.onSelect(hit);
      if (hit >= 0) setDrag({ kind: 'move', index: hit, last: ip, moved: false });
      else setDrag({ kind: 'pan', last: p });
    }
  };

  const onPointerMove = (e: React.PointerEvent<SVGSVGElement>) => {
    const p = local(e);
    if (pointers.current.has(e.pointerId)) pointers.current.set(e.pointerId, p);
    setHover(imagePoint(p));
    if (!drag) return;
    if (drag.kind === 'pinch') {
      if (pointers.current.size < 2) return;
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      setView((v) => pinch(v, drag.last, [a, b]));
      setDrag({ kind: 'pinch', last: [a, b] });
    } else if (drag.kind === 'pan') {
      setView((v) => panBy(v, p.x - drag.last.x, p.y - drag.last.y));
      setDrag({ kind: 'pan', last: p });
    } else if (drag.kind === 'box') {
      setDrag({ ...drag, end: clampPoint(imagePoint(p), width, height) });
    } else if (drag.kind === 'move') {
      const ip = imagePoint(p);
      const shape = shapes[drag.index];
      if (!shape) return;
      props.onMove(drag.index, moveShape(shape, ip.x - drag.last.x, ip.y - drag.last.y, width, height));
      setDrag({ ...drag, last: ip, moved: true });
    }
  };

  const onPointerUp = (e: React.PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(e.pointerId);
    if (!drag) return;
    if (drag.kind === 'pinch') {
      // One finger left: no drawing starts from the remaining one.
      if (pointers.current.size === 0) setDrag(null);
      return;
    }
    if (drag.kind === 'box') {
      // The release point ends the box: a touch's last move may arrive only with its pointerup (coalesced).
      const end = e.type === 'pointerup' ? clampPoint(imagePoint(local(e)), width, height) : drag.end;
      const b = boxFromCorners(drag.start, end, width, height);
      // A click (under 3 screen pixels) is not a box.
      if (b.w * view.scale >= 3 && b.h * view.scale >= 3) props.onAdd({ kind: 'box', ...b, keypoints: [] });
    }
    if (drag.kind === 'move' && drag.moved) props.onCommitMove();
    setDrag(null);
  };

  const stroke = { vectorEffect: 'non-scaling-stroke' as const, strokeWidth: 2 };
  const draftBox = drag?.kind === 'box' ? boxFromCorners(drag.start, drag.end, width, height) : null;
  const r = 5 / view.scale;

  return (
    <svg
      ref={svgRef}
      data-testid="annotate-canvas"
      data-scale={view.scale}
      data-tx={view.tx}
      data-ty={view.ty}
      style={{
        width: '100%',
        height: '100%',
        display: 'block',
        touchAction: 'none',
        userSelect: 'none',
        cursor: panning || drag?.kind === 'pan' ? 'grabbing' : tool === 'select' ? 'default' : 'crosshair',
        background: 'var(--mantine-color-dark-8)',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={() => setHover(null)}
      onDoubleClick={() => {
        if (tool === 'polygon' && draft.length >= 3) {
          props.onAdd({ kind: 'polygon', points: draft });
          setDraft([]);
        }
      }}
    >
      <g transform={viewTransform(view)} data-testid="annotate-view">
        <image
          href={url}
          x={0}
          y={0}
          width={width}
          height={height}
          preserveAspectRatio="none"
          style={{ imageRendering: view.scale > 3 ? 'pixelated' : 'auto' }}
        />
        {showLabels &&
          suggestions.map((s, i) => (
            <ShapeView
              key={`s${i}`}
              shape={s}
              color={classColor(s.cls)}
              r={r}
              stroke={{ ...stroke, strokeDasharray: '6 4' }}
              testId="suggestion"
              label={classNames[s.cls]}
            />
          ))}
        {showLabels &&
          shapes.map((s, i) => (
            <ShapeView
              key={i}
              shape={s}
              color={classColor(s.cls)}
              r={r}
              stroke={{ ...stroke, strokeWidth: i === selected ? 3 : 2 }}
              selected={i === selected}
              testId="label"
              label={classNames[s.cls]}
            />
          ))}
        {draftBox && (
          <rect x={draftBox.x} y={draftBox.y} width={draftBox.w} height={draftBox.h} fill="none" stroke="#fff" strokeDasharray="4 3" style={stroke} />
        )}
        {draft.length > 0 && (
          <polyline
            points={[...draft, ...(hover ? [[hover.x, hover.y] as [number, number]] : [])].map((q) => q.join(',')).join(' ')}
            fill="none"
            stroke="#fff"
            style={stroke}
            data-testid="polygon-draft"
          />
        )}
      </g>
    </svg>
  );
}

function ShapeView({
  shape,
  color,
  r,
  stroke,
  selected = false,
  testId,
  label,
}: {
  shape: Shape;
  color: string;
  r: number;
  stroke: React.CSSProperties;
  selected?: boolean;
  testId: string;
  label?: string;
}) {
  const common = { 'data-testid': testId, 'data-cls': shape.cls, 'data-class-name': label ?? String(shape.cls), 'data-selected': selected || undefined };
  if (shape.kind === 'polygon')
    return (
      <polygon
        {...common}
        data-points={shape.points.map((q) => q.join(',')).join(' ')}
        points={shape.points.map((q) => q.join(',')).join(' ')}
        fill={color}
        fillOpacity={selected ? 0.35 : 0.2}
        stroke={color}
        style={stroke}
      />
    );
  return (
    <g {...common} data-x={shape.x} data-y={shape.y} data-w={shape.w} data-h={shape.h}>
      <rect x={shape.x} y={shape.y} width={shape.w} height={shape.h} fill={color} fillOpacity={selected ? 0.2 : 0.06} stroke={color} style={stroke} />
      {shape.keypoints.map(([x, y, v], k) =>
        v === 0 ? null : <circle key={k} cx={x} cy={y} r={r} fill={color} stroke="#fff" style={{ ...stroke, strokeWidth: 1 }} data-testid="keypoint" />,
      )}
    </g>
  );
}

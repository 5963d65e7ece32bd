import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconChevronLeft,
  IconChevronRight,
  IconEye,
  IconEyeOff,
  IconHandStop,
  IconKeyboard,
  IconMaximize,
  IconPoint,
  IconPolygon,
  IconSquare,
  IconTrash,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorCode, REVIEW_FILTERS, topics, type ReviewFilter as Filter } from '@sightline/contracts';
import { useMediaQuery } from '@mantine/hooks';
import { useDataset } from '../../datasets';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify-error';
import { realtime } from '../../../lib/realtime';
import { classColor } from '../../../lib/class-colors';
import { getImageLabels, imageLabelsQueryKey, imageLabelsQueryOptions, useImageLabels } from '../api/get-image-labels';
import { suggestionsQueryKey, useSuggestions } from '../api/get-suggestions';
import { reviewSuggestions } from '../api/review-suggestions';
import { IMAGE_PAGE_SIZE, useImagePages } from '../api/get-image-page';
import { classCountsQueryKey, useClassCounts } from '../api/get-class-counts';
import { isComplete, useReviewPages, type ReviewSelection } from '../api/get-review-page';
import { putImageLabels } from '../api/put-image-labels';
import { ConflictDialog } from '../components/conflict-dialog';
import { EditorCanvas, type CanvasHandle, type Tool } from '../components/editor-canvas';
import { ImageList } from '../components/image-list';
import { ReviewFilter } from '../components/review-filter';
import { SaveIndicator } from '../components/save-indicator';
import { keypointCount, moveShape, type DrawnShape, rowsToShapes, shapesToRows, type Keypoint, type Point, type Shape } from '../editor/geometry';
import { createHistory, pushHistory, redo, undo, type History } from '../editor/history';
import { SaveQueue, type ImageLabels } from '../editor/save-queue';
import { pagesFor } from '../editor/virtual-range';
import { useAnnotateT } from '../i18n';

const SUPPORTED = ['detect', 'segment', 'pose', 'classify'];
interface Doc {
  shapes: Shape[];
  className: string | null;
}

/** The review filter named by the URL (`?filter=unlabelled|suggested|changed-since&since=N|disagree&evaluation=ID`), or none. */
function readSelection(params: URLSearchParams): ReviewSelection | null {
  const filter = params.get('filter');
  if (!filter || !(REVIEW_FILTERS as readonly string[]).includes(filter)) return null;
  const since = Number(params.get('since')) || undefined;
  const evaluationId = params.get('evaluation') || undefined;
  return { filter: filter as Filter, ...(since ? { since } : {}), ...(evaluationId && filter === 'disagree' ? { evaluationId } : {}) };
}

const browserStorage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/**
 * /datasets/:id/annotate[?image=<imageId>&i=<index>&filter=…] (the review filter: readSelection) — the annotation editor (ADR 0040). Labels are edited in image
 * pixels and saved per image with the revision they came from; nothing here loads more than the pages in view.
 */
export default function AnnotatePage() {
  const { t } = useAnnotateT();
  const { id = '' } = useParams();
  const query = useDataset(id);
  const dataset = query.data;
  if (query.isPending) return <PageLoader />;
  if (!dataset) return <Alert color="red">{isApiError(query.error) ? query.error.message : t('loadFailed')}</Alert>;
  const back = (
    <Anchor component={Link} to={`/datasets/${encodeURIComponent(id)}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
      {t('back')}
    </Anchor>
  );
  if (!dataset.abilities.canEdit)
    return (
      <Stack>
        {back}
        <Alert color="yellow">{t('notEditable')}</Alert>
      </Stack>
    );
  if (!SUPPORTED.includes(dataset.task))
    return (
      <Stack>
        {back}
        <Alert color="yellow">{t('unsupportedTask', { task: dataset.task })}</Alert>
      </Stack>
    );
  return <Editor datasetId={id} name={dataset.meta.name} task={dataset.task} classNames={dataset.stats?.classes ?? []} back={back} />;
}

function Editor({ datasetId, name, task, classNames, back }: { datasetId: string; name: string; task: string; classNames: string[]; back: React.ReactNode }) {
  const { t } = useAnnotateT();
  const queryClient = useQueryClient();
  const wide = useMediaQuery('(min-width: 62em)', true);
  const [params, setParams] = useSearchParams();
  const index = Math.max(0, Number(params.get('i') ?? 0) || 0);
  const [listRange, setListRange] = useState({ start: 0, end: 0 });
  const pages = useMemo(
    () => [...new Set([Math.floor(index / IMAGE_PAGE_SIZE), ...pagesFor(listRange, IMAGE_PAGE_SIZE)])].sort((a, b) => a - b),
    [index, listRange],
  );
  // A review filter lists its images in keyset pages read one after another as the list reaches their end;
  // without one the list is the dataset's, any page of it read directly.
  const selection = useMemo(() => readSelection(params), [params]);
  const evaluationParam = params.get('evaluation');
  const pageQueries = useImagePages(datasetId, selection ? [] : pages);
  const reviewList = useReviewPages(datasetId, selection);
  const filtered = useMemo(() => reviewList.data?.pages.flatMap((p) => p.results) ?? [], [reviewList.data]);
  const more = !!reviewList.hasNextPage;
  const byPage = new Map(pages.map((p, k) => [p, pageQueries[k]?.data]));
  // A server that leaves `total` out (keyset pages) still tells how far the loaded pages reach.
  const total = selection
    ? filtered.length + (more ? 1 : 0)
    : Math.max(
        0,
        ...pages.map((p, k) => {
          const d = pageQueries[k]?.data;
          return d ? Math.max(d.total ?? 0, p * IMAGE_PAGE_SIZE + d.results.length + (d.nextCursor ? 1 : 0)) : 0;
        }),
      );
  const imageAt = (i: number) => (selection ? filtered[i] : byPage.get(Math.floor(i / IMAGE_PAGE_SIZE))?.results[i % IMAGE_PAGE_SIZE]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = reviewList;
  useEffect(() => {
    if (selection && hasNextPage && !isFetchingNextPage && Math.max(index, listRange.end) >= filtered.length - 5) void fetchNextPage();
  }, [selection, hasNextPage, isFetchingNextPage, fetchNextPage, index, listRange.end, filtered.length]);
  const listDone = selection ? !isComplete(selection) || reviewList.isSuccess : pageQueries.every((q) => q.isSuccess);
  const classCounts = useClassCounts(datasetId);
  const requested = params.get('image');
  const image = imageAt(index);
  const labelsQuery = useImageLabels(datasetId, image?.id);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  const queue = useMemo(
    () =>
      new SaveQueue({
        put: (imageId, body) => putImageLabels(datasetId, imageId, body),
        get: (imageId) => getImageLabels(datasetId, imageId),
        classify: (error) =>
          isApiError(error) && (error.code === ErrorCode.LabelsConflict || error.status === 409)
            ? { kind: 'conflict' }
            : isApiError(error) && (error.isNetworkError || error.status >= 500 || error.status === 408 || error.status === 429)
              ? { kind: 'offline' }
              : { kind: 'invalid', message: error instanceof Error ? error.message : String(error) },
        storage: browserStorage(),
        storageKey: `sightline.annotate.${datasetId}`,
        onSaved: (saved: ImageLabels) => {
          queryClient.setQueryData(imageLabelsQueryKey(datasetId, saved.imageId), saved);
          void queryClient.invalidateQueries({ queryKey: classCountsQueryKey(datasetId) });
        },
        onChange: () => rerender(),
      }),
    [datasetId, queryClient],
  );
  useEffect(() => {
    void queue.flushAll();
    const flush = () => void queue.flushAll();
    const hidden = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('online', flush);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('online', flush);
      document.removeEventListener('visibilitychange', hidden);
      void queue.flushAll();
      queue.dispose();
    };
  }, [queue]);

  // Images processed without their size recorded are measured from the bytes once.
  const natural = useNaturalSize(image && (!image.width || !image.height) ? image.url : undefined);
  const width = image?.width || natural?.w || 0;
  const height = image?.height || natural?.h || 0;
  const docOf = useCallback(
    (labels: number[][], className: string | null): Doc => ({ shapes: rowsToShapes(labels, task, width, height), className }),
    [task, width, height],
  );

  // The editor's history belongs to one image; it starts from unsent local edits, else the server's labels.
  const [hist, setHist] = useState<History<Doc> & { imageId?: string }>(createHistory<Doc>({ shapes: [], className: null }));
  const server = labelsQuery.data;
  useEffect(() => {
    if (!image || !server || server.imageId !== image.id || !width || !height) return;
    const local = queue.get(image.id);
    if (hist.imageId !== image.id) {
      setHist({ ...createHistory(docOf(local?.labels ?? server.labels, local ? local.className : server.className)), imageId: image.id });
      return;
    }
    // Someone else saved this image (realtime) and nothing of ours waits: their labels replace ours on screen.
    // Our own saves come back equal to what is shown and change nothing (the undo history stays).
    if (!local && !sameLabels(shapesToRows(hist.present.shapes, task, width, height), server.labels, hist.present.className, server.className))
      setHist({ ...createHistory(docOf(server.labels, server.className)), imageId: image.id });
  }, [image, server]); // eslint-disable-line react-hooks/exhaustive-deps
  const ready = !!image && hist.imageId === image.id;
  const doc = hist.present;

  // Where the editor starts on the page: the notices above it vary, and the editor fills the window below them.
  const stackRef = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(120);
  useLayoutEffect(() => {
    const el = stackRef.current;
    if (!el) return;
    const measure = () => setTop(Math.max(0, Math.round(el.getBoundingClientRect().top + window.scrollY)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(document.body);
    return () => ro.disconnect();
  }, []);

  const [selected, setSelected] = useState(-1);
  const [tool, setTool] = useState<Tool>(task === 'segment' ? 'polygon' : task === 'classify' ? 'select' : 'box');
  const [cls, setCls] = useState(0);
  const [showLabels, setShowLabels] = useState(true);
  const [panning, setPanning] = useState(false);
  const [help, setHelp] = useState(false);
  const canvas = useRef<CanvasHandle>(null);
  const dragBase = useRef<Doc | null>(null);
  const latest = useRef(hist);
  latest.current = hist;

  const save = (next: Doc) => {
    if (!image || !server) return;
    queue.edit(image.id, server.revision, shapesToRows(next.shapes, task, width, height), next.className);
  };
  const commit = (next: Doc) => {
    setHist((h) => ({ ...pushHistory(h, next), imageId: h.imageId }));
    save(next);
  };
  const step = (fn: (h: History<Doc>) => History<Doc>) => {
    const next = fn(hist);
    if (next === hist) return;
    setHist({ ...next, imageId: hist.imageId });
    setSelected(-1);
    save(next.present);
  };

  const go = (i: number) => {
    if (i < 0 || (total && i >= total)) return;
    void queue.flushAll();
    const next = new URLSearchParams(params);
    next.set('i', String(i));
    const target = imageAt(i);
    if (target) next.set('image', target.id);
    else next.delete('image');
    setParams(next, { replace: true });
    setSelected(-1);
  };
  const changeFilter = useCallback(
    (next: ReviewSelection | null) => {
      void queue.flushAll();
      const q = new URLSearchParams(params);
      for (const k of ['filter', 'since', 'i', 'image']) q.delete(k);
      if (next) q.set('filter', next.filter);
      if (next?.since) q.set('since', String(next.since));
      setParams(q, { replace: true });
      setSelected(-1);
    },
    [params, setParams, queue],
  );
  // The URL names the image: keep it in step when the page arrives.
  useEffect(() => {
    if (image && requested !== image.id) {
      const next = new URLSearchParams(params);
      next.set('image', image.id);
      setParams(next, { replace: true });
    }
  }, [image, requested, params, setParams]);

  const addShape = (s: DrawnShape) => {
    let shape = { ...s, cls } as Shape;
    if (shape.kind === 'box' && task === 'pose' && shape.keypoints.length === 0) {
      const n = keypointCount(doc.shapes);
      shape = { ...shape, keypoints: Array.from({ length: n }, () => [0, 0, 0] as Keypoint) };
    }
    commit({ ...doc, shapes: [...doc.shapes, shape] });
    setSelected(doc.shapes.length);
  };
  const setKeypoint = (i: number, p: Point) => {
    const s = doc.shapes[i];
    if (!s || s.kind !== 'box') return;
    const slot = s.keypoints.findIndex((k) => k[2] === 0);
    const keypoints = [...s.keypoints];
    if (slot >= 0) keypoints[slot] = [p.x, p.y, 2];
    else keypoints.push([p.x, p.y, 2]);
    commit({ ...doc, shapes: doc.shapes.map((q, k) => (k === i ? { ...s, keypoints } : q)) });
  };
  const pickClass = (k: number) => {
    if (classNames.length && k >= classNames.length) return;
    setCls(k);
    if (task === 'classify') commit({ ...doc, className: classNames[k] ?? String(k) });
    else if (selected >= 0 && doc.shapes[selected]) commit({ ...doc, shapes: doc.shapes.map((s, i) => (i === selected ? { ...s, cls: k } : s)) });
  };
  const remove = () => {
    if (selected < 0) return;
    commit({ ...doc, shapes: doc.shapes.filter((_, i) => i !== selected) });
    setSelected(-1);
  };
  const nudge = (dx: number, dy: number, resize: boolean) => {
    const s = doc.shapes[selected];
    if (!s) return;
    const next: Shape =
      resize && s.kind === 'box'
        ? { ...s, w: Math.max(1, Math.min(width - s.x, s.w + dx)), h: Math.max(1, Math.min(height - s.y, s.h + dy)) }
        : moveShape(s, dx, dy, width, height);
    commit({ ...doc, shapes: doc.shapes.map((q, i) => (i === selected ? next : q)) });
  };

  // Keyboard-first: every action has a key (the shortcuts line lists them).
  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  keys.current = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    if (document.querySelector('[data-testid="labels-conflict"]')) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    let handled = true;
    if (mod && key === 'z') step(e.shiftKey ? redo : undo);
    else if (mod && key === 'y') step(redo);
    else if (mod) handled = false;
    else if (/^[1-9]$/.test(e.key)) pickClass(Number(e.key) - 1);
    else if (key === 'n' || (key === 'arrowright' && selected < 0) || (key === 'arrowdown' && selected < 0)) go(index + 1);
    else if (key === 'p' || (key === 'arrowleft' && selected < 0) || (key === 'arrowup' && selected < 0)) go(index - 1);
    else if (key.startsWith('arrow')) {
      const d = e.shiftKey ? 10 : 1;
      const [dx, dy] = key === 'arrowleft' ? [-d, 0] : key === 'arrowright' ? [d, 0] : key === 'arrowup' ? [0, -d] : [0, d];
      nudge(dx, dy, e.altKey);
    } else if (key === 'delete' || key === 'backspace') remove();
    else if (key === '+' || key === '=') canvas.current?.zoom(1.25);
    else if (key === '-' || key === '_') canvas.current?.zoom(0.8);
    else if (key === '0') canvas.current?.fit();
    else if (key === 'h') setShowLabels((v) => !v);
    else if (key === 'b' && task !== 'classify' && task !== 'segment') setTool('box');
    else if (key === 'g' && task === 'segment') setTool('polygon');
    else if (key === 'k' && task === 'pose') setTool('keypoint');
    else if (key === 'v') setTool('select');
    else if (key === 'a') void review('accept', e.shiftKey);
    else if (key === 'r') void review('reject');
    else if (key === 'enter') canvas.current?.closePolygon();
    else if (key === 'escape') {
      canvas.current?.cancelDraft();
      setSelected(-1);
    } else if (key === ' ') setPanning(true);
    else handled = false;
    if (handled) e.preventDefault();
  };
  useEffect(() => {
    const down = (e: KeyboardEvent) => keys.current(e);
    const up = (e: KeyboardEvent) => e.key === ' ' && setPanning(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, []);

  // Others viewing the dataset: a save of theirs refreshes that image's labels here.
  useEffect(
    () =>
      realtime.subscribe(topics.dataset(datasetId), (message) => {
        // Names of packages/contracts/src/realtime.ts: `dataset.relabelled` (an edit, ADR 0037), `labels.updated` and
        // `suggestions.updated` (labelling, ADR 0039); a null image means many images changed.
        const { event, data } = message as { event: string; data?: { imageId?: string | null; imageIds?: string[] | null } };
        if (event === 'dataset.relabelled' || event === 'labels.updated') {
          // The per-class counts follow every label change, ours and others'.
          void queryClient.invalidateQueries({ queryKey: classCountsQueryKey(datasetId) });
          const ids = data?.imageId ? [data.imageId] : null;
          if (!ids) void queryClient.invalidateQueries({ queryKey: ['datasets', datasetId, 'labels'] });
          for (const imageId of ids ?? []) void queryClient.invalidateQueries({ queryKey: imageLabelsQueryKey(datasetId, imageId) });
        }
        if (event === 'suggestions.updated' || event === 'labels.updated') {
          const ids = data?.imageIds ?? (data?.imageId ? [data.imageId] : null);
          if (!ids) void queryClient.invalidateQueries({ queryKey: ['datasets', datasetId, 'suggestions'] });
          for (const imageId of ids ?? []) void queryClient.invalidateQueries({ queryKey: suggestionsQueryKey(datasetId, imageId) });
        }
      }),
    [datasetId, queryClient],
  );

  // Suggestions of a model are drawn dashed, apart from the labels, until accepted (A) or rejected (R).
  const suggestionsQuery = useSuggestions(datasetId, image?.id, task);
  const suggestionRows = (suggestionsQuery.data ?? []).flatMap((s) => s.rows);
  // Classify: a model proposes the image's class (no rows); shown beside the class buttons, accepted with A.
  const suggestedClass = task === 'classify' ? ((suggestionsQuery.data ?? []).find((s) => s.className) ?? null) : null;
  const suggestionCount = suggestionRows.length + (suggestedClass ? 1 : 0);
  const suggestedShapes = width && height ? rowsToShapes(suggestionRows, task, width, height) : [];
  const review = async (action: 'accept' | 'reject', all = false) => {
    if (!image || (!all && suggestionCount === 0)) return;
    try {
      // Ours first: accepting writes labels on top of the revision our edits made.
      await queue.flushAll();
      await reviewSuggestions(datasetId, action, all ? { all: true } : { imageIds: [image.id] });
      const fresh = await queryClient.fetchQuery({ ...imageLabelsQueryOptions(datasetId, image.id), staleTime: 0 });
      if (!queue.get(image.id)) setHist({ ...createHistory(docOf(fresh.labels, fresh.className)), imageId: image.id });
      await queryClient.invalidateQueries({ queryKey: ['datasets', datasetId, 'suggestions'] });
      void queryClient.invalidateQueries({ queryKey: classCountsQueryKey(datasetId) });
      if (all) await queryClient.invalidateQueries({ queryKey: ['datasets', datasetId, 'labels'] });
    } catch (error) {
      notifyError(error);
    }
  };

  const entry = image ? queue.get(image.id) : undefined;
  const resolve = async (choice: 'mine' | 'both' | 'theirs') => {
    if (!image || !entry?.theirs) return;
    const theirs = entry.theirs;
    await queue.resolve(image.id, choice);
    if (choice === 'theirs') setHist({ ...createHistory(docOf(theirs.labels, theirs.className)), imageId: image.id });
    if (choice === 'both') {
      const merged = queryClient.getQueryData<ImageLabels>(imageLabelsQueryKey(datasetId, image.id));
      if (merged) setHist({ ...createHistory(docOf(merged.labels, merged.className)), imageId: image.id });
    }
  };

  // The list's row of the current image tells what the editor holds now, not what its page said when it was read.
  const listImageAt = (i: number) =>
    i === index && image && ready && width && height
      ? { ...image, labels: shapesToRows(doc.shapes, task, width, height), className: doc.className }
      : imageAt(i);

  const tools: Array<{ tool: Tool; icon: React.ReactNode; label: string; tasks: string[] }> = [
    { tool: 'select', icon: <IconHandStop size={18} />, label: t('tools.select'), tasks: ['detect', 'segment', 'pose'] },
    { tool: 'box', icon: <IconSquare size={18} />, label: t('tools.box'), tasks: ['detect', 'pose'] },
    { tool: 'polygon', icon: <IconPolygon size={18} />, label: t('tools.polygon'), tasks: ['segment'] },
    { tool: 'keypoint', icon: <IconPoint size={18} />, label: t('tools.keypoint'), tasks: ['pose'] },
  ];
  const classList = classNames.length ? classNames : ['0'];

  return (
    // Wide screens fit the editor in the window below what the layout puts above it (a notice, the header), beside its list; on a phone the controls wrap above a canvas of most of
    // the screen's height, the list below it, and the page scrolls (a canvas squeezed into what the controls leave is
    // too small to draw on).
    <Stack ref={stackRef} gap="xs" style={wide ? { height: `calc(100dvh - ${top + 16}px)`, minHeight: 420 } : undefined} data-testid="annotate-page">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {back}
          <Text fw={600} truncate>
            {t('title', { name })}
          </Text>
        </Group>
        <Group gap="xs">
          <Text size="sm" c="dimmed" data-testid="annotate-position">
            {total ? t(selection && more ? 'imageOfMore' : 'imageOf', { index: index + 1, total: selection ? filtered.length : total }) : ''}
          </Text>
          <SaveIndicator queue={queue} />
        </Group>
      </Group>
      <Group gap={4} wrap="wrap" data-testid="annotate-toolbar">
        <Tip label={t('actions.previous')}>
          <ActionIcon variant="default" size={36} onClick={() => go(index - 1)} disabled={index === 0} aria-label={t('actions.previous')}>
            <IconChevronLeft size={18} />
          </ActionIcon>
        </Tip>
        <Tip label={t('actions.next')}>
          <ActionIcon variant="default" size={36} onClick={() => go(index + 1)} disabled={index >= total - 1} aria-label={t('actions.next')}>
            <IconChevronRight size={18} />
          </ActionIcon>
        </Tip>
        {tools
          .filter((x) => x.tasks.includes(task))
          .map((x) => (
            <Tip key={x.tool} label={x.label}>
              <ActionIcon
                variant={tool === x.tool ? 'filled' : 'default'}
                size={36}
                onClick={() => setTool(x.tool)}
                aria-label={x.label}
                aria-pressed={tool === x.tool}
              >
                {x.icon}
              </ActionIcon>
            </Tip>
          ))}
        <Tip label={t('actions.undo')}>
          <ActionIcon variant="default" size={36} onClick={() => step(undo)} disabled={!hist.past.length} aria-label={t('actions.undo')}>
            <IconArrowBackUp size={18} />
          </ActionIcon>
        </Tip>
        <Tip label={t('actions.redo')}>
          <ActionIcon variant="default" size={36} onClick={() => step(redo)} disabled={!hist.future.length} aria-label={t('actions.redo')}>
            <IconArrowForwardUp size={18} />
          </ActionIcon>
        </Tip>
        {task !== 'classify' && (
          <>
            <Tip label={t('actions.delete')}>
              <ActionIcon variant="default" size={36} onClick={remove} disabled={selected < 0} aria-label={t('actions.delete')}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tip>
            <Tip label={t('actions.zoomIn')}>
              <ActionIcon variant="default" size={36} onClick={() => canvas.current?.zoom(1.25)} aria-label={t('actions.zoomIn')}>
                <IconZoomIn size={18} />
              </ActionIcon>
            </Tip>
            <Tip label={t('actions.zoomOut')}>
              <ActionIcon variant="default" size={36} onClick={() => canvas.current?.zoom(0.8)} aria-label={t('actions.zoomOut')}>
                <IconZoomOut size={18} />
              </ActionIcon>
            </Tip>
            <Tip label={t('actions.fit')}>
              <ActionIcon variant="default" size={36} onClick={() => canvas.current?.fit()} aria-label={t('actions.fit')}>
                <IconMaximize size={18} />
              </ActionIcon>
            </Tip>
            <Tip label={showLabels ? t('actions.hide') : t('actions.show')}>
              <ActionIcon variant="default" size={36} onClick={() => setShowLabels((v) => !v)} aria-label={showLabels ? t('actions.hide') : t('actions.show')}>
                {showLabels ? <IconEyeOff size={18} /> : <IconEye size={18} />}
              </ActionIcon>
            </Tip>
          </>
        )}
        <Tip label={t('actions.shortcuts')}>
          <ActionIcon variant={help ? 'filled' : 'default'} size={36} onClick={() => setHelp((v) => !v)} aria-label={t('actions.shortcuts')}>
            <IconKeyboard size={18} />
          </ActionIcon>
        </Tip>
      </Group>
      <ReviewFilter
        datasetId={datasetId}
        value={selection}
        evaluationId={evaluationParam}
        counts={classCounts.data}
        shown={filtered.length}
        more={more}
        onChange={changeFilter}
      />
      {help && (
        <Text size="xs" c="dimmed">
          {t('shortcuts')}
        </Text>
      )}
      <Group gap={4} wrap="wrap" data-testid="annotate-classes" aria-label={task === 'classify' ? t('imageClass') : t('classes')}>
        {classList.map((c, k) => {
          const active = task === 'classify' ? doc.className === c : cls === k;
          const count = classCounts.data?.counts[c];
          const suggested = suggestedClass?.className === c;
          return (
            <Button
              key={k}
              size="compact-sm"
              variant={active ? 'filled' : 'default'}
              color={task === 'classify' ? undefined : classColor(k)}
              onClick={() => pickClass(k)}
              aria-pressed={active}
              data-suggested={suggested || undefined}
              style={suggested ? { outline: '2px dashed var(--mantine-color-yellow-5)', outlineOffset: 1 } : undefined}
              leftSection={
                k < 9 ? (
                  <Text size="xs" c={active ? undefined : 'dimmed'}>
                    {k + 1}
                  </Text>
                ) : undefined
              }
              rightSection={
                count !== undefined ? (
                  <Text size="xs" c={active ? undefined : 'dimmed'} data-testid="class-count" data-class={c} title={t('review.count', { count })}>
                    {count}
                  </Text>
                ) : undefined
              }
            >
              {c}
            </Button>
          );
        })}
        {!classNames.length && (
          <Text size="xs" c="dimmed">
            {t('noClasses')}
          </Text>
        )}
      </Group>
      {suggestionCount > 0 && (
        <Group gap="xs" wrap="wrap" data-testid="suggestions-bar">
          <Text size="sm">{t('suggestions.count', { count: suggestionCount })}</Text>
          {suggestedClass && (
            <Text size="sm" fw={600} data-testid="suggested-class">
              {t('suggestions.classify', { name: suggestedClass.className, conf: (suggestedClass.conf[0] ?? 1).toFixed(2) })}
            </Text>
          )}
          <Button size="compact-sm" onClick={() => void review('accept')}>
            {t('suggestions.accept')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={() => void review('reject')}>
            {t('suggestions.reject')}
          </Button>
          <Button size="compact-sm" variant="light" onClick={() => void review('accept', true)}>
            {t('suggestions.acceptAll')}
          </Button>
        </Group>
      )}
      <div style={{ flex: wide ? 1 : 'none', minHeight: 0, display: 'flex', flexDirection: wide ? 'row' : 'column', gap: 8 }}>
        <Paper
          withBorder
          style={{ ...(wide ? { flex: 1, minHeight: 240 } : { flex: 'none', height: 'min(58dvh, 560px)' }), overflow: 'hidden', position: 'relative' }}
        >
          {total === 0 && listDone ? (
            <Text p="md" data-testid="annotate-empty">
              {selection ? t('review.none') : t('noImages')}
            </Text>
          ) : !ready || !image ? (
            labelsQuery.isError ? (
              <Alert color="red" m="md">
                {t('loadFailed')}
              </Alert>
            ) : (
              <Loader m="md" />
            )
          ) : task === 'classify' ? (
            <img
              src={image.url}
              alt={image.name}
              style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
              data-testid="annotate-classify-image"
            />
          ) : (
            <EditorCanvas
              ref={canvas}
              url={image.url}
              width={width}
              height={height}
              shapes={doc.shapes}
              suggestions={suggestedShapes}
              selected={selected}
              tool={tool}
              showLabels={showLabels}
              panning={panning}
              classNames={classNames}
              onSelect={setSelected}
              onAdd={addShape}
              onMove={(i, s) => {
                const h = latest.current;
                if (!dragBase.current) dragBase.current = h.present;
                // A drag is one undo step: the moves replace the present until the pointer is released.
                latest.current = { ...h, present: { ...h.present, shapes: h.present.shapes.map((q, k) => (k === i ? s : q)) } };
                setHist(latest.current);
              }}
              onCommitMove={() => {
                const base = dragBase.current;
                dragBase.current = null;
                if (!base) return;
                const h = latest.current;
                setHist({ past: [...h.past, base], present: h.present, future: [], imageId: h.imageId });
                save(h.present);
              }}
              onKeypoint={setKeypoint}
            />
          )}
        </Paper>
        <Paper withBorder style={{ width: wide ? 280 : '100%', height: wide ? '100%' : 180, flex: 'none' }} aria-label={t('images')}>
          <ImageList total={total} imageAt={listImageAt} current={index} onPick={go} onRange={setListRange} />
        </Paper>
      </div>
      <ConflictDialog
        entry={entry?.status === 'conflict' ? entry : undefined}
        url={image?.url ?? ''}
        task={task}
        classNames={classNames}
        onResolve={(c) => void resolve(c)}
      />
    </Stack>
  );
}

const Tip = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Tooltip label={label} withArrow openDelay={400}>
    {children}
  </Tooltip>
);

const sameLabels = (a: number[][], b: number[][], ca: string | null, cb: string | null) =>
  ca === cb && a.length === b.length && a.every((row, i) => row.length === b[i]!.length && row.every((v, k) => Math.abs(v - b[i]![k]!) < 1e-9));

function useNaturalSize(url: string | undefined) {
  const [size, setSize] = useState<{ url: string; w: number; h: number } | null>(null);
  useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => setSize({ url, w: img.naturalWidth, h: img.naturalHeight });
    img.src = url;
    return () => {
      img.onload = null;
    };
  }, [url]);
  return size && size.url === url ? size : null;
}

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DetectionEvalResult, Evaluation, EvaluationMistakes } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { fakeApi, makeModel } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import ModelContentPage from '../../models/routes/model-content';

const routes = [{ path: '/models/:id', element: <ModelContentPage /> }];
const model = makeModel({
  id: 'mEval00000000000001',
  names: ['cat', 'dog'],
  task: 'detect',
  files: [{ kind: 'onnx', name: 'm.onnx', bytes: 10, epoch: null, created: '2026-01-01T10:00:00.000Z', url: null }],
});
const curve = (classId: number | null, name: string) => ({ classId, name, y: [1, 0.8, 0] });
const perClass = (classId: number, name: string) => ({
  classId,
  name,
  images: 3,
  instances: 4,
  predictions: 5,
  precision: 0.75,
  recall: 0.5,
  f1: 0.6,
  tp: 2,
  fp: 1,
  mAP50: 0.6,
  mAP75: 0.4,
  mAP50_95: 0.35,
  ap: null,
});
const result: DetectionEvalResult = {
  task: 'detect',
  classNames: ['cat', 'dog'],
  images: 5,
  instances: 8,
  predictions: 10,
  box: {
    precision: 0.75,
    recall: 0.5,
    f1: 0.6,
    mAP50: 0.612,
    mAP75: 0.4,
    mAP50_95: 0.35,
    perClass: [perClass(0, 'cat'), perClass(1, 'dog')],
    curves: {
      x: [0, 0.5, 1],
      pr: [curve(0, 'cat'), curve(1, 'dog'), curve(null, 'all')],
      f1: [curve(null, 'all')],
      precision: [curve(null, 'all')],
      recall: [curve(null, 'all')],
      bestConfidence: 0.4,
      bestF1: 0.6,
    },
  },
  confusionMatrix: {
    names: ['cat', 'dog', 'background'],
    background: true,
    matrix: [
      [3, 1, 1],
      [0, 2, 0],
      [1, 0, 0],
    ],
    conf: 0.25,
    iou: 0.45,
  },
  protocol: { name: 'ultralytics-val', iouThresholds: [0.5], confusionConf: 0.25, confusionIou: 0.45 },
};
const evaluation: Evaluation = {
  id: 'eval1',
  modelId: model.id,
  dataset: { id: 'd1', name: 'pets' },
  split: 'val',
  task: 'detect',
  status: 'completed',
  progress: { done: 5, total: 5 },
  error: null,
  classMap: {
    pairs: [
      { datasetClass: 0, modelClass: 0, name: 'cat' },
      { datasetClass: 1, modelClass: 1, name: 'dog' },
    ],
    unmappedDataset: ['bird'],
    unmappedModel: [],
    skippedLabels: 2,
  },
  classNames: ['cat', 'dog'],
  result,
  headline: { name: 'mAP50', value: 0.612 },
  reused: true,
  created: '2026-01-02T10:00:00.000Z',
  started: '2026-01-02T10:00:01.000Z',
  finished: '2026-01-02T10:00:09.000Z',
};
const mistakes: EvaluationMistakes = {
  datasetClassNames: ['cat', 'dog', 'bird'],
  results: [
    {
      kind: 'fp',
      classId: 1,
      className: 'dog',
      confidence: 0.91,
      prediction: { classId: 1, box: [10, 10, 50, 40], confidence: 0.91 },
      label: null,
      image: {
        id: 'i1',
        split: 'val',
        name: 'a.jpg',
        width: 100,
        height: 80,
        className: null,
        labels: [[0, 0.5, 0.5, 0.2, 0.2]],
        thumbUrl: null,
        url: '/img/a.jpg',
      },
    },
  ],
};

describe('Evaluate tab', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('evaluates on the chosen dataset and split, shows scores, unmapped classes, and opens a false positive with its prediction over the labels', async () => {
    const api = fakeApi({
      [`GET /v1/models/${model.id}`]: () => model,
      'GET /v1/datasets': () => ({
        results: [
          { id: 'd1', status: 'Ready', task: 'detect', meta: { name: 'pets' } },
          { id: 'd2', status: 'Loading', task: 'detect', meta: { name: 'busy' } },
        ],
        total: 2,
        lastRecordId: null,
      }),
      [`GET /v1/models/${model.id}/evaluations`]: () => [],
      [`POST /v1/models/${model.id}/evaluations`]: () => evaluation,
      'GET /v1/evaluations/eval1': () => evaluation,
      'GET /v1/evaluations/eval1/mistakes': () => mistakes,
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes(routes, { path: `/models/${model.id}?tab=evaluate`, user: makeUser() });

    // The first ready dataset of the model's task is chosen.
    await waitFor(() => expect(screen.getByTestId('eval-dataset')).toHaveValue('pets'), { timeout: 5000 });
    await userEvent.click(within(screen.getByTestId('eval-split')).getByText('Test'));
    await userEvent.click(screen.getByTestId('eval-start'));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ datasetId: 'd1', split: 'test' }));

    const results = await screen.findByTestId('eval-results');
    expect(within(results).getByTestId('eval-map50')).toHaveTextContent('0.612');
    expect(within(screen.getByTestId('eval-class-table')).getByText('dog')).toBeInTheDocument();
    expect(screen.getByTestId('eval-unmapped')).toHaveTextContent('bird');
    expect(screen.getByTestId('eval-unmapped')).toHaveTextContent('2 labels of unmapped classes left out.');

    // The editor's "model and labels disagree" filter opens on this evaluation's images.
    expect(await screen.findByTestId('eval-review-in-editor')).toHaveAttribute('href', '/datasets/d1/annotate?filter=disagree&evaluation=eval1');
    await userEvent.click(await screen.findByTestId('eval-mistake'));
    const lightbox = await screen.findByTestId('lightbox');
    // The modal's root appears before its content has mounted: wait for the caption itself.
    expect(await within(lightbox).findByTestId('eval-lightbox-caption')).toHaveTextContent('False positive: dog predicted at 0.91 where no label is.');
    const box = within(lightbox).getByTestId('lightbox-prediction-box');
    expect(box).toHaveAttribute('x', '0.1');
    expect(box).toHaveAttribute('width', '0.4');
    expect(within(lightbox).getAllByTestId('label-box')).toHaveLength(1);
  });
});

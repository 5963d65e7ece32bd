import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeModel } from '../../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../../test/render';
import { PreviewPanel } from './preview-panel';
import { PredictionOverlay } from './prediction-overlay';

const model = makeModel({ id: 'mPreview00000000001', meta: { name: 'shapes', description: '', privacy: 'private' } });
const prediction = {
  images: [
    {
      shape: [240, 320],
      results: [
        { class: 0, name: 'red_square', confidence: 0.91, box: { x1: 10, y1: 20, x2: 110, y2: 70 } },
        { class: 1, name: 'green_circle', confidence: 0.8, box: { x1: 200, y1: 100, x2: 260, y2: 160 }, segments: { x: [200, 260, 230], y: [100, 100, 160] } },
      ],
      speed: { decode: 1.2, preprocess: 2, inference: 10.5, postprocess: 0.7 },
    },
  ],
  speed: { decode: 1.2, preprocess: 2, inference: 10.5, postprocess: 0.7 },
  metadata: { model: model.id, task: 'detect', names: ['red_square', 'green_circle'], imgsz: [640, 640] },
};

/** jsdom lays nothing out: the image is "displayed" at 640×480, twice its 320×240 pixels. */
function displayImagesAt(width: number, height: number) {
  vi.spyOn(HTMLImageElement.prototype, 'getBoundingClientRect').mockReturnValue({
    width,
    height,
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    right: width,
    bottom: height,
    toJSON: () => ({}),
  } as DOMRect);
}

describe('prediction overlay', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws boxes, labels and masks scaled from image pixels to the displayed size', () => {
    displayImagesAt(640, 480);
    renderRoutes([
      { path: '/', element: <PredictionOverlay src="blob:x" alt="img" imageSize={{ width: 320, height: 240 }} results={prediction.images[0]!.results} /> },
    ]);
    fireEvent.load(screen.getByAltText('img'));
    const svg = screen.getByTestId('prediction-overlay');
    expect(svg).toHaveAttribute('width', '640');
    const boxes = within(svg).getAllByTestId('prediction-box');
    expect(boxes.map((b) => b.getAttribute('data-class'))).toEqual(['red_square', 'green_circle']);
    const rect = boxes[0]!.querySelector('rect')!;
    expect([rect.getAttribute('x'), rect.getAttribute('y'), rect.getAttribute('width'), rect.getAttribute('height')]).toEqual(['20', '40', '200', '100']);
    expect(within(boxes[0]! as unknown as HTMLElement).getByTestId('prediction-label')).toHaveTextContent('red_square 0.91');
    expect(within(boxes[1]! as unknown as HTMLElement).getByTestId('prediction-mask')).toHaveAttribute('points', '400,200 520,200 460,320');
    // Same class, same colour: the box stroke is the class colour of its label tag.
    expect(rect.getAttribute('stroke')).toBe(boxes[0]!.querySelectorAll('rect')[1]!.getAttribute('fill'));
  });
});

describe('preview panel', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function serve(predict: () => Response) {
    const api = fakeApi({ 'GET /v1/api-keys': () => [], [`POST /v1/predict/${model.id}`]: predict });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    return api;
  }
  const upload = async () => {
    renderRoutes([{ path: '/', element: <PreviewPanel model={model} /> }], { user: makeUser() });
    const input = (await screen.findByTestId('image-dropzone')).querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([137, 80, 78, 71])], 'test_0003.png', { type: 'image/png' })] } });
  };

  it('sends the image with conf 0.25, iou 0.45 and the model image size; shows detections, timings and quota', async () => {
    displayImagesAt(640, 480);
    const api = serve(
      () =>
        new Response(JSON.stringify(prediction), {
          status: 200,
          headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '97', 'x-ratelimit-reset': '1' },
        }),
    );
    await upload();
    expect(await screen.findByTestId('detections-table')).toHaveTextContent('red_square');
    const sent = api.calls.find((c) => c.path === `/v1/predict/${model.id}`)!.body as FormData;
    expect([sent.get('conf'), sent.get('iou'), sent.get('imgsz')]).toEqual(['0.25', '0.45', '640']);
    expect((sent.get('file') as File).name).toBe('test_0003.png');
    expect(screen.getByTestId('predict-speed')).toHaveTextContent('inference 10.5 ms');
    expect(screen.getByTestId('rate-limit')).toHaveTextContent('97 of 100 calls left this hour');
    fireEvent.load(screen.getByAltText('test_0003.png'));
    expect(screen.getAllByTestId('prediction-box')).toHaveLength(2);
    expect(screen.getByTestId('predict-snippet')).toHaveTextContent(`/v1/predict/${model.id}`);
  });

  it("picks an image from the model's dataset (validation split) and runs on it", async () => {
    const withDataset = makeModel({
      id: 'mPreviewDs000000001',
      dataset: { id: 'd1', name: 'shapes3', filepath: null, url: '/datasets/d1', type: null, version: null },
    });
    const image = {
      id: 'i1',
      split: 'val',
      name: 'val_0001.png',
      width: 320,
      height: 240,
      className: null,
      labels: [],
      thumbUrl: '/v1/thumbs/i1.jpg',
      url: '/v1/datasets/d1/images/i1/raw?sig=abc',
    };
    const api = fakeApi({
      'GET /v1/api-keys': () => [],
      'GET /v1/datasets/d1/images': () => ({ results: [image], total: 1 }),
      'GET /v1/datasets/d1/images/i1/raw': () => new Response(new Uint8Array([137, 80, 78, 71]), { status: 200, headers: { 'content-type': 'image/png' } }),
      [`POST /v1/predict/${withDataset.id}`]: () => new Response(JSON.stringify(prediction), { status: 200 }),
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/', element: <PreviewPanel model={withDataset} /> }], { user: makeUser() });
    fireEvent.click(await screen.findByRole('tab', { name: 'From the dataset' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Run on val_0001.png' }));
    expect(await screen.findByTestId('detections-table')).toHaveTextContent('green_circle');
    expect(api.calls.find((c) => c.path === '/v1/datasets/d1/images')).toBeTruthy();
    const sent = api.calls.find((c) => c.path === `/v1/predict/${withDataset.id}`)!.body as FormData;
    expect((sent.get('file') as File).name).toBe('val_0001.png');
  });

  it('no ONNX file: the server message with where to export or upload one', async () => {
    serve(
      () =>
        new Response(
          JSON.stringify({
            error: {
              code: 'error/no-onnx',
              message: 'This model has no ONNX file. Export it to ONNX (or upload a .onnx file) to run inference.',
              details: { export: { format: 'onnx', path: `/models/${model.id}?tab=deploy` } },
            },
          }),
          { status: 409 },
        ),
    );
    await upload();
    const alert = await screen.findByTestId('predict-error');
    expect(alert).toHaveTextContent('This model has no ONNX file.');
    expect(within(alert).getByRole('link', { name: 'Export it to ONNX' })).toHaveAttribute('href', `/models/${model.id}?tab=deploy`);
    expect(within(alert).getByRole('link', { name: 'Upload a .onnx model' })).toHaveAttribute('href', '/models');
  });

  it('429: the limit message and when to try again, from Retry-After', async () => {
    serve(
      () =>
        new Response(
          JSON.stringify({
            error: {
              code: 'error/rate-limited',
              message: 'Inference limit reached (100 per hour on your plan). Try again in 120 s.',
              details: { retryAfter: 120 },
            },
          }),
          { status: 429, headers: { 'retry-after': '120', 'x-ratelimit-remaining': '0' } },
        ),
    );
    await upload();
    const alert = await screen.findByTestId('predict-error');
    expect(alert).toHaveAttribute('data-code', 'error/rate-limited');
    await waitFor(() => expect(within(alert).getByTestId('retry-after')).toHaveTextContent(/Try again in 120 s \(at .+\)\./));
  });
});

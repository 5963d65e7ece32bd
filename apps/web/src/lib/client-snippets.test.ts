import { describe, expect, it } from 'vitest';
import { keyPlaceholder, legacyTrainSnippet, platformTrainSnippet, predictSnippets, shellWord, trainArgs } from './client-snippets';

describe('client snippets', () => {
  it('current clients: origin and ul_ key in env, ul:// dataset, project and name of the model', () => {
    const code = platformTrainSnippet({
      origin: 'http://hub.local:3000',
      key: `ul_${'a'.repeat(40)}`,
      username: 'ada',
      datasetSlug: 'shapes3',
      projectSlug: 'pets',
      modelSlug: 'run-1',
      model: 'yolo11n-seg.pt',
      config: {
        epochs: 5,
        imageSize: 640,
        batchSize: -1,
        patience: 100,
        cache: 'ram',
        device: '0,1',
        time: null,
        advanced: { lr0: 0.01, close_mosaic: 0, rect: true },
      },
    });
    const lines = code.split('\n');
    expect(lines).toContain('export ULTRALYTICS_PLATFORM_URL=http://hub.local:3000');
    expect(lines.find((l) => l.startsWith('export ULTRALYTICS_API_KEY='))).toBe(
      `export ULTRALYTICS_API_KEY=ul_${'a'.repeat(40)}  # or: yolo login ul_${'a'.repeat(40)}`,
    );
    expect(lines.at(-1)).toBe(
      'yolo train model=yolo11n-seg.pt data=ul://ada/datasets/shapes3 epochs=5 imgsz=640 batch=-1 patience=100 cache=ram device=0,1 lr0=0.01 close_mosaic=0 rect=True project=ada/pets name=run-1',
    );
    expect(code).not.toContain('PLATFORM_API_URL');
  });

  it('legacy clients: pinned client, both roots, the 42-character key and the model URL', () => {
    const code = legacyTrainSnippet({ origin: 'http://hub.local:3000', legacyKey: `ul${'b'.repeat(40)}`, modelId: 'AbCdEfGhIjKlMnOpQrSt' });
    expect(code.split('\n')).toEqual([
      'pip install "ultralytics<8.4.115" hub-sdk',
      'export ULTRALYTICS_HUB_API=http://hub.local:3000',
      'export ULTRALYTICS_HUB_WEB=http://hub.local:3000',
      `yolo login ul${'b'.repeat(40)}`,
      `python -c "from ultralytics import YOLO; YOLO('http://hub.local:3000/models/AbCdEfGhIjKlMnOpQrSt').train()"`,
    ]);
  });

  it('skips unset options, quotes what the shell would split, and names unknown secrets', () => {
    expect(trainArgs({ epochs: 3, cache: null, device: null, time: null })).toEqual(['epochs=3']);
    expect(trainArgs({ cache: true, time: 1.5 })).toEqual(['cache=True', 'time=1.5']);
    expect(shellWord("name=my run's")).toBe(`'name=my run'\\''s'`);
    expect(keyPlaceholder('ul_1a2b3c')).toBe('<ul_1a2b3c… key>');
    expect(keyPlaceholder('ul_1a2b3c', true)).toBe('<ul1a2b3c… key>');
  });

  it('inference calls carry the key, the file and the thresholds in every language', () => {
    const s = predictSnippets({ origin: 'https://x.test', modelId: 'M1', key: 'ul_k', conf: 0.3, iou: 0.5, imgsz: 320 });
    expect(s.curl.split('\n')[0]).toBe('curl -X POST https://x.test/v1/predict/M1 \\');
    // the same header as the Deploy tab's curl
    expect(s.curl).toContain("-H 'x-api-key: ul_k'");
    expect(s.curl).toContain('-F "conf=0.3" -F "iou=0.5" -F "imgsz=320"');
    expect(s.python).toContain('files={"file": f}');
    expect(s.python).toContain('data = {"conf": 0.3, "iou": 0.5, "imgsz": 320}');
    expect(s.python).toContain('headers = {"x-api-key": "ul_k"}');
    expect(s.javascript).toContain("headers: { 'x-api-key': 'ul_k' }");
  });
});

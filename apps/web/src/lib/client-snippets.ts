/**
 * Copy-ready setup for the user's own ultralytics client, one builder per client generation
 * (platform-protocol.md "Minimal server surface", hub-protocol.md "Minimal server surface"), and
 * the inference API calls. Pure strings: the UI masks the secret until the user reveals it.
 */

/** Highest ultralytics release that still speaks the HUB protocol is below this one. */
export const PLATFORM_CLIENT_MIN_VERSION = '8.4.115';

export interface TrainConfigArgs {
  epochs?: number | null;
  imageSize?: number | null;
  batchSize?: number | null;
  patience?: number | null;
  cache?: boolean | 'ram' | 'disk' | null;
  device?: string | null;
  time?: number | null;
  advanced?: Record<string, unknown> | null;
}

/** Quotes a shell word only when it needs it. */
export function shellWord(value: string): string {
  if (value !== '' && /^[\w@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const pyValue = (v: unknown) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));

/** The model config as `yolo` CLI arguments (`k=v`), skipping what the client defaults itself. */
export function trainArgs(config: TrainConfigArgs): string[] {
  const args: Array<[string, unknown]> = [
    ['epochs', config.epochs],
    ['imgsz', config.imageSize],
    ['batch', config.batchSize],
    ['patience', config.patience],
    ['cache', config.cache === true ? true : config.cache || null],
    ['device', config.device || null],
    ['time', config.time || null],
    ...Object.entries(config.advanced ?? {}),
  ];
  return args.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => shellWord(`${k}=${pyValue(v)}`));
}

export interface PlatformTrainInput {
  origin: string;
  /** The `ul_` key, or a placeholder the user replaces. */
  key: string;
  username: string;
  datasetSlug: string;
  projectSlug: string;
  modelSlug: string;
  /** Starting weights or architecture: `yolo11n.pt`, `yolo11n-seg.yaml` or `ul://owner/project/model`. */
  model: string;
  config: TrainConfigArgs;
}

/** Current clients (ultralytics ≥ 8.4.115): two environment variables, then a plain `yolo train`. */
export function platformTrainSnippet(i: PlatformTrainInput): string {
  const train = [
    'yolo train',
    shellWord(`model=${i.model}`),
    shellWord(`data=ul://${i.username}/datasets/${i.datasetSlug}`),
    ...trainArgs(i.config),
    shellWord(`project=${i.username}/${i.projectSlug}`),
    shellWord(`name=${i.modelSlug}`),
  ];
  return [
    'pip install -U ultralytics  # Python 3.11 or newer',
    `export ULTRALYTICS_PLATFORM_URL=${shellWord(i.origin)}`,
    `export ULTRALYTICS_API_KEY=${shellWord(i.key)}  # or: yolo login ${shellWord(i.key)}`,
    train.join(' '),
  ].join('\n');
}

export interface LegacyTrainInput {
  origin: string;
  /** The 42-character key (`ul` + 40 hex, no underscore), or a placeholder. */
  legacyKey: string;
  modelId: string;
}

/** Legacy clients (ultralytics < 8.4.115 with hub-sdk): the model URL carries everything else. */
export function legacyTrainSnippet(i: LegacyTrainInput): string {
  return [
    `pip install "ultralytics<${PLATFORM_CLIENT_MIN_VERSION}" hub-sdk`,
    ...legacyEnv(i.origin),
    `yolo login ${shellWord(i.legacyKey)}`,
    `python -c "from ultralytics import YOLO; YOLO('${i.origin}/models/${i.modelId}').train()"`,
  ].join('\n');
}

const legacyEnv = (origin: string) => [`export ULTRALYTICS_HUB_API=${shellWord(origin)}`, `export ULTRALYTICS_HUB_WEB=${shellWord(origin)}`];

/** Sign-in only, for the settings page: current clients. */
export function platformLoginSnippet(origin: string, key: string): string {
  return [
    'pip install -U ultralytics  # Python 3.11 or newer',
    `export ULTRALYTICS_PLATFORM_URL=${shellWord(origin)}`,
    `yolo login ${shellWord(key)}  # or: export ULTRALYTICS_API_KEY=${shellWord(key)}`,
  ].join('\n');
}

/** Sign-in only, for the settings page: legacy clients. */
export function legacyLoginSnippet(origin: string, legacyKey: string): string {
  return [`pip install "ultralytics<${PLATFORM_CLIENT_MIN_VERSION}" hub-sdk`, ...legacyEnv(origin), `yolo login ${shellWord(legacyKey)}`].join('\n');
}

export interface PredictSnippetInput {
  origin: string;
  modelId: string;
  key: string;
  conf: number;
  iou: number;
  imgsz: number;
}

export type PredictLanguage = 'curl' | 'python' | 'javascript';

/** POST /v1/predict/{modelId} as curl, Python requests and browser/Node fetch, with the key in `x-api-key` like the Deploy tab's snippet. */
export function predictSnippets(i: PredictSnippetInput): Record<PredictLanguage, string> {
  const url = `${i.origin}/v1/predict/${i.modelId}`;
  return {
    curl: [
      `curl -X POST ${shellWord(url)} \\`,
      `  -H ${shellWord(`x-api-key: ${i.key}`)} \\`,
      '  -F "file=@image.jpg" \\',
      `  -F "conf=${i.conf}" -F "iou=${i.iou}" -F "imgsz=${i.imgsz}"`,
    ].join('\n'),
    python: [
      'import requests',
      '',
      `url = "${url}"`,
      `headers = {"x-api-key": "${i.key}"}`,
      `data = {"conf": ${i.conf}, "iou": ${i.iou}, "imgsz": ${i.imgsz}}`,
      'with open("image.jpg", "rb") as f:',
      '    response = requests.post(url, headers=headers, data=data, files={"file": f})',
      'response.raise_for_status()',
      'print(response.json()["images"][0]["results"])',
    ].join('\n'),
    javascript: [
      'const form = new FormData();',
      "form.append('file', file); // a File or Blob",
      `form.append('conf', '${i.conf}');`,
      `form.append('iou', '${i.iou}');`,
      `form.append('imgsz', '${i.imgsz}');`,
      `const response = await fetch('${url}', {`,
      "  method: 'POST',",
      `  headers: { 'x-api-key': '${i.key}' },`,
      '  body: form,',
      '});',
      'const { images } = await response.json();',
      'console.log(images[0].results);',
    ].join('\n'),
  };
}

/** What the snippet shows instead of a secret that is not known on this page. */
export const keyPlaceholder = (prefix: string | null | undefined, legacy = false) => {
  if (!prefix) return legacy ? '<your 42-character API key>' : '<your ul_ API key>';
  return `<${legacy ? prefix.replace(/^ul_/, 'ul') : prefix}… key>`;
};

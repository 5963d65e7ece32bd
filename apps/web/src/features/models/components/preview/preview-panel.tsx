import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Image,
  Loader,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconCode, IconDatabase, IconPhoto, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import type { DatasetImage, Model } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ImageDropzone } from '../../../../components/image-dropzone';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { fetchPreviewImage, usePreviewImages } from '../../api/predict-dataset-images';
import { PredictError, usePredict, type PredictResponse, type RateLimit } from '../../api/predict-model';
import { CameraCapture, cameraAvailable } from './camera-capture';
import { classColor } from './overlay-geometry';
import { PredictionOverlay } from './prediction-overlay';
import { PredictSnippet } from './predict-snippet';

export const CONF_DEFAULT = 0.25;
export const IOU_DEFAULT = 0.45;
const IMGSZ_CHOICES = [320, 480, 640, 960, 1280];

function DatasetPicker({ datasetId, onPick, disabled }: { datasetId: string; onPick: (image: DatasetImage) => void; disabled: boolean }) {
  const { t } = useTranslation(TRAINING_NS);
  const val = usePreviewImages(datasetId, 'val');
  const test = usePreviewImages(datasetId, 'test', val.isSuccess && val.data.results.length === 0);
  const images = val.data?.results.length ? val.data.results : (test.data?.results ?? []);
  if (val.isPending) return <Loader size="sm" />;
  if (val.isError)
    return (
      <Text size="sm" c="dimmed">
        {t('preview.datasetUnavailable')}
      </Text>
    );
  if (!images.length)
    return (
      <Text size="sm" c="dimmed">
        {t('preview.datasetEmpty')}
      </Text>
    );
  return (
    <SimpleGrid cols={{ base: 4, sm: 6, md: 8 }} spacing={6} data-testid="dataset-images">
      {images.map((img) => (
        <UnstyledButton
          key={img.id}
          onClick={() => onPick(img)}
          disabled={disabled}
          aria-label={t('preview.useImage', { name: img.name })}
          style={{ borderRadius: 4, overflow: 'hidden', border: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Image src={img.thumbUrl ?? img.url} alt="" h={72} fit="cover" />
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}

function PredictErrorAlert({ error, model }: { error: Error; model: Model }) {
  const { t, i18n } = useTranslation(TRAINING_NS);
  if (!(error instanceof PredictError))
    return (
      <Alert color="red" variant="light">
        {error.message}
      </Alert>
    );
  if (error.code === 'error/no-onnx') {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={t('preview.noOnnxTitle')}
        data-testid="predict-error"
        data-code={error.code}
      >
        <Stack gap={4}>
          <Text size="sm">{error.message}</Text>
          <Group gap="md">
            <Anchor component={Link} to={error.exportPath ?? `/models/${model.id}?tab=deploy`} size="sm">
              {t('preview.exportOnnx')}
            </Anchor>
            <Anchor component={Link} to="/models" size="sm">
              {t('preview.uploadOnnx')}
            </Anchor>
          </Group>
        </Stack>
      </Alert>
    );
  }
  if (error.status === 429) {
    const at = error.retryAfter !== null ? new Date(Date.now() + error.retryAfter * 1000) : null;
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={t('preview.rateLimitedTitle')}
        data-testid="predict-error"
        data-code={error.code}
      >
        <Text size="sm">{error.message}</Text>
        {at && (
          <Text size="sm" fw={500} data-testid="retry-after">
            {t('preview.retryAt', { seconds: error.retryAfter, time: new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(at) })}
          </Text>
        )}
        <Anchor component={Link} to="/settings?tab=api-keys" size="sm">
          {t('preview.seeUsage')}
        </Anchor>
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="predict-error" data-code={error.code}>
      {error.message}
    </Alert>
  );
}

function Results({ prediction, rateLimit }: { prediction: PredictResponse; rateLimit: RateLimit | null }) {
  const { t } = useTranslation(TRAINING_NS);
  const image = prediction.images[0];
  if (!image) return null;
  const speed = image.speed ?? prediction.speed;
  const stages = (['decode', 'preprocess', 'inference', 'postprocess'] as const).filter((s) => typeof speed?.[s] === 'number');
  const classify = image.results.length > 0 && image.results.every((r) => !r.box && !r.segments);
  return (
    <Stack gap="sm">
      <Group gap={6} data-testid="predict-speed">
        {stages.map((s) => (
          <Badge key={s} variant="light" color="gray" tt="none">
            {t(`preview.stages.${s}`)} {speed[s]!.toFixed(1)} ms
          </Badge>
        ))}
        {rateLimit && (
          <Text size="xs" c="dimmed" data-testid="rate-limit">
            {t('preview.quota', { remaining: rateLimit.remaining, limit: rateLimit.limit })}
          </Text>
        )}
      </Group>
      {image.results.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-detections">
          {t('preview.nothing')}
        </Text>
      ) : classify ? (
        <Stack gap={6} data-testid="classify-results">
          {image.results.map((r) => (
            <div key={r.class}>
              <Group justify="space-between">
                <Text size="sm">{r.name}</Text>
                <Text size="sm" fw={600}>
                  {(r.confidence * 100).toFixed(1)} %
                </Text>
              </Group>
              <Progress value={r.confidence * 100} color={classColor(r.class)} size="sm" />
            </div>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing={4} fz="sm" data-testid="detections-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('preview.class')}</Table.Th>
                <Table.Th>{t('preview.confidence')}</Table.Th>
                <Table.Th>{t('preview.box')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {image.results.map((r, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <span aria-hidden style={{ width: 10, height: 10, borderRadius: 2, background: classColor(r.class), flex: 'none' }} />
                      {r.name}
                    </Group>
                  </Table.Td>
                  <Table.Td>{r.confidence.toFixed(3)}</Table.Td>
                  <Table.Td ff="monospace">{r.box ? [r.box.x1, r.box.y1, r.box.x2, r.box.y2].map((v) => Math.round(v)).join(', ') : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** Preview tab: run the model on an uploaded, dataset or camera image and see what it finds. */
export function PreviewPanel({ model }: { model: Model }) {
  const { t } = useTranslation(TRAINING_NS);
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [conf, setConf] = useState(CONF_DEFAULT);
  const [iou, setIou] = useState(IOU_DEFAULT);
  const [imgsz, setImgsz] = useState(() => Math.min(1280, Math.max(32, model.imageSize ?? 640)));
  const [source, setSource] = useState<string | null>('upload');
  const [picking, setPicking] = useState(false);
  const [result, setResult] = useState<{ prediction: PredictResponse; rateLimit: RateLimit | null } | null>(null);
  const predict = usePredict();
  const latest = useRef(0);
  const hasCamera = cameraAvailable();
  // The dataset option shows only when the viewer can read the model's dataset.
  const datasetProbe = usePreviewImages(model.dataset.id, 'val');
  const datasetId = model.dataset.id && !datasetProbe.isError ? model.dataset.id : null;

  useEffect(() => {
    if (!file) return;
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);

  const run = (image: File, params = { conf, iou, imgsz }) => {
    const id = ++latest.current;
    predict.mutate(
      { modelId: model.id, file: image, filename: image.name, ...params },
      // A slower earlier answer must not replace a newer one.
      { onSuccess: (r) => id === latest.current && setResult(r), onError: () => id === latest.current && setResult(null) },
    );
  };
  const choose = (image: File) => {
    setFile(image);
    setResult(null);
    run(image);
  };

  const imageSize = result?.prediction.images[0] ? { width: result.prediction.images[0].shape[1], height: result.prediction.images[0].shape[0] } : null;
  const imgszChoices = [...new Set([...IMGSZ_CHOICES, imgsz])].sort((a, b) => a - b);

  return (
    <Stack gap="md" data-testid="preview-panel">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Tabs value={source} onChange={setSource} keepMounted={false} variant="pills">
            <Tabs.List>
              <Tabs.Tab value="upload" leftSection={<IconUpload size={14} />}>
                {t('preview.upload')}
              </Tabs.Tab>
              {datasetId && (
                <Tabs.Tab value="dataset" leftSection={<IconDatabase size={14} />}>
                  {t('preview.fromDataset')}
                </Tabs.Tab>
              )}
              {hasCamera && (
                <Tabs.Tab value="camera" leftSection={<IconCamera size={14} />}>
                  {t('preview.camera')}
                </Tabs.Tab>
              )}
            </Tabs.List>
            <Tabs.Panel value="upload" pt="sm">
              <ImageDropzone onImage={choose} loading={predict.isPending} />
            </Tabs.Panel>
            {datasetId && (
              <Tabs.Panel value="dataset" pt="sm">
                <DatasetPicker
                  datasetId={datasetId}
                  disabled={picking}
                  onPick={(img) => {
                    setPicking(true);
                    fetchPreviewImage(img)
                      .then(choose)
                      .catch(() => undefined)
                      .finally(() => setPicking(false));
                  }}
                />
              </Tabs.Panel>
            )}
            {hasCamera && (
              <Tabs.Panel value="camera" pt="sm">
                <CameraCapture onCapture={choose} />
              </Tabs.Panel>
            )}
          </Tabs>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            <div>
              <Text size="sm" fw={500} id="conf-label">
                {t('preview.conf')}: {conf.toFixed(2)}
              </Text>
              <Slider
                aria-labelledby="conf-label"
                thumbLabel={t('preview.conf')}
                min={0.01}
                max={1}
                step={0.01}
                value={conf}
                onChange={setConf}
                onChangeEnd={(v) => file && run(file, { conf: v, iou, imgsz })}
                label={(v) => v.toFixed(2)}
              />
            </div>
            <div>
              <Text size="sm" fw={500} id="iou-label">
                {t('preview.iou')}: {iou.toFixed(2)}
              </Text>
              <Slider
                aria-labelledby="iou-label"
                thumbLabel={t('preview.iou')}
                min={0}
                max={0.95}
                step={0.01}
                value={iou}
                onChange={setIou}
                onChangeEnd={(v) => file && run(file, { conf, iou: v, imgsz })}
                label={(v) => v.toFixed(2)}
              />
            </div>
            <Select
              label={t('preview.imgsz')}
              data={imgszChoices.map((s) => ({ value: String(s), label: `${s} px` }))}
              value={String(imgsz)}
              allowDeselect={false}
              onChange={(v) => {
                const next = Number(v);
                setImgsz(next);
                if (file) run(file, { conf, iou, imgsz: next });
              }}
            />
          </SimpleGrid>
        </Stack>
      </Paper>

      {predict.isError && <PredictErrorAlert error={predict.error} model={model} />}

      {url ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <IconPhoto size={18} />
                <Text fw={600} size="sm">
                  {file?.name}
                </Text>
                {predict.isPending && <Loader size="xs" />}
              </Group>
              <Button size="xs" variant="light" leftSection={<IconPlayerPlay size={14} />} onClick={() => file && run(file)} loading={predict.isPending}>
                {t('preview.run')}
              </Button>
            </Group>
            <PredictionOverlay src={url} alt={file?.name ?? ''} imageSize={imageSize} results={result?.prediction.images[0]?.results ?? []} />
            {result && <Results prediction={result.prediction} rateLimit={result.rateLimit} />}
          </Stack>
        </Paper>
      ) : (
        <Text size="sm" c="dimmed">
          {t('preview.pickImage')}
        </Text>
      )}

      <Paper withBorder radius="md" p="md">
        <Group gap="xs" mb="sm">
          <IconCode size={18} />
          <Title order={3} fz="md">
            {t('preview.apiTitle')}
          </Title>
        </Group>
        <PredictSnippet modelId={model.id} modelName={model.meta.name} conf={conf} iou={iou} imgsz={imgsz} />
      </Paper>
    </Stack>
  );
}

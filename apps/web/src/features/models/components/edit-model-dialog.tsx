import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, JsonInput, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { updateModelBody, type Model, type ModelConfig } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { fieldErrors } from '../../../lib/form';
import { useUpdateModel, type UpdateModelBody } from '../api/update-model';
import { useModelsT } from '../i18n';

type CacheChoice = 'none' | 'false' | 'true' | 'ram' | 'disk';
const cacheToChoice = (c: ModelConfig['cache']): CacheChoice => (c === null ? 'none' : c === true ? 'true' : c === false ? 'false' : c);
const choiceToCache = (c: CacheChoice): ModelConfig['cache'] => (c === 'none' ? null : c === 'true' ? true : c === 'false' ? false : c);
const num = (v: string | number) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));

function EditModelForm({ model, editConfig, onClose }: { model: Model; editConfig: boolean; onClose: () => void }) {
  const { t } = useModelsT();
  const update = useUpdateModel();
  const c = model.config;
  const [name, setName] = useState(model.meta.name);
  const [description, setDescription] = useState(model.meta.description);
  const [batchSize, setBatchSize] = useState<string | number>(c.batchSize);
  const [epochs, setEpochs] = useState<string | number>(c.epochs);
  const [imageSize, setImageSize] = useState<string | number>(c.imageSize);
  const [patience, setPatience] = useState<string | number>(c.patience);
  const [time, setTime] = useState<string | number>(c.time ?? '');
  const [device, setDevice] = useState(c.device ?? '');
  const [cache, setCache] = useState<CacheChoice>(cacheToChoice(c.cache));
  const [advanced, setAdvanced] = useState(c.advanced && Object.keys(c.advanced).length ? JSON.stringify(c.advanced, null, 2) : '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: UpdateModelBody = { meta: { name, description } };
    const errs: Record<string, string> = {};
    if (editConfig) {
      let adv: Record<string, unknown> | undefined;
      if (advanced.trim()) {
        try {
          const parsed: unknown = JSON.parse(advanced);
          if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
          adv = parsed as Record<string, unknown>;
        } catch {
          errs.advanced = t('edit.advancedInvalid');
        }
      }
      body.config = {
        batchSize: num(batchSize),
        epochs: num(epochs),
        imageSize: num(imageSize),
        patience: num(patience),
        time: time === '' ? null : num(time),
        device: device.trim() || null,
        cache: choiceToCache(cache),
        advanced: adv ?? {},
      };
      const configErrors = fieldErrors(updateModelBody.shape.config.unwrap(), body.config);
      for (const [k, v] of Object.entries(configErrors)) errs[k] = v;
    }
    const metaErrors = fieldErrors(updateModelBody.shape.meta.unwrap(), body.meta);
    for (const [k, v] of Object.entries(metaErrors)) errs[k] = v;
    setErrors(errs);
    if (Object.keys(errs).length) return;
    update.mutate({ id: model.id, body }, { onSuccess: onClose });
  };

  const serverError = update.error && isApiError(update.error) && update.error.status === 400 ? update.error.message : null;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('edit.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={100}
          required
          data-autofocus
        />
        <Textarea
          label={t('edit.description')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors.description}
          maxLength={1000}
          autosize
          minRows={2}
          maxRows={6}
        />
        {editConfig ? (
          <>
            <Text fw={600} size="sm" mt="xs">
              {t('config.title')}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <NumberInput
                label={t('config.batchSize')}
                description={t('config.batchSizeHint')}
                value={batchSize}
                onChange={setBatchSize}
                min={-1}
                max={4096}
                allowDecimal={false}
                error={errors.batchSize}
              />
              <NumberInput label={t('config.epochs')} value={epochs} onChange={setEpochs} min={1} max={10000} allowDecimal={false} error={errors.epochs} />
              <NumberInput
                label={t('config.imageSize')}
                value={imageSize}
                onChange={setImageSize}
                min={32}
                max={8192}
                step={32}
                allowDecimal={false}
                error={errors.imageSize}
              />
              <NumberInput
                label={t('config.patience')}
                value={patience}
                onChange={setPatience}
                min={0}
                max={10000}
                allowDecimal={false}
                error={errors.patience}
              />
              <NumberInput
                label={t('config.time')}
                description={t('config.timeHint')}
                value={time}
                onChange={setTime}
                min={0}
                max={10000}
                decimalScale={2}
                error={errors.time}
              />
              <TextInput
                label={t('config.device')}
                description={t('config.deviceHint')}
                value={device}
                onChange={(e) => setDevice(e.currentTarget.value)}
                maxLength={64}
                error={errors.device}
              />
              <Select
                label={t('config.cache')}
                value={cache}
                onChange={(v) => setCache((v as CacheChoice) ?? 'none')}
                allowDeselect={false}
                data={(['none', 'false', 'true', 'ram', 'disk'] as const).map((v) => ({ value: v, label: t(`config.cacheChoice.${v}`) }))}
                error={errors.cache}
              />
            </SimpleGrid>
            <JsonInput
              label={t('config.advanced')}
              description={t('config.advancedHint')}
              value={advanced}
              onChange={setAdvanced}
              autosize
              minRows={3}
              maxRows={10}
              formatOnBlur
              error={errors.advanced}
              placeholder='{ "lr0": 0.01 }'
            />
          </>
        ) : (
          <Alert variant="light" color="gray">
            {t('edit.configLocked')}
          </Alert>
        )}
        {serverError && (
          <Alert color="red" variant="light" role="alert">
            {serverError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={update.isPending}>
            {t('common:save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Edit name and description; the training configuration only while the model is not trained. */
export function EditModelDialog({ model, opened, onClose, editConfig }: { model: Model; opened: boolean; onClose: () => void; editConfig: boolean }) {
  const { t } = useModelsT();
  return (
    <Modal opened={opened} onClose={onClose} title={t('edit.title')} size="lg" centered>
      <EditModelForm model={model} editConfig={editConfig} onClose={onClose} />
    </Modal>
  );
}

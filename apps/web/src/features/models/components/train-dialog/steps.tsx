import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Radio,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDatabase, IconPlus, IconTrash } from '@tabler/icons-react';
import { isTrainableTask, type Dataset, type Model, type Project } from '@sightline/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '../../../../components/page-loader';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { architectureId, FAMILIES, SIZES, type FormErrors, type TrainForm } from './train-form';

export interface StepProps {
  form: TrainForm;
  set: (patch: Partial<TrainForm>) => void;
  errors: FormErrors;
}

const useErr = (errors: FormErrors) => {
  const { t } = useTranslation(TRAINING_NS);
  return (field: keyof FormErrors) => (errors[field] ? t(`dialog.errors.${errors[field]}`) : undefined);
};

export function DatasetStep({ form, set, errors, datasets, loading }: StepProps & { datasets: Dataset[]; loading: boolean }) {
  const { t } = useTranslation(TRAINING_NS);
  const err = useErr(errors);
  const [filter, setFilter] = useState('');
  if (loading) return <PageLoader fullHeight={false} />;
  if (!datasets.length) {
    return (
      <Alert color="blue" variant="light" icon={<IconDatabase size={18} />} title={t('dialog.dataset.emptyTitle')}>
        {t('dialog.dataset.emptyBody')}{' '}
        <Anchor component={Link} to="/datasets">
          {t('dialog.dataset.toDatasets')}
        </Anchor>
      </Alert>
    );
  }
  const shown = datasets.filter((d) => d.meta.name.toLowerCase().includes(filter.trim().toLowerCase()));
  return (
    <Stack gap="sm">
      {datasets.length > 6 && <TextInput label={t('dialog.dataset.filter')} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />}
      <Radio.Group
        value={form.datasetId}
        onChange={(id) => set({ datasetId: id })}
        label={t('dialog.dataset.label')}
        description={t('dialog.dataset.description')}
        error={err('datasetId')}
      >
        <ScrollArea.Autosize mah={360} mt="xs">
          <Stack gap="xs">
            {shown.map((d) => (
              <Radio.Card key={d.id} value={d.id} radius="md" p="sm" data-testid="dataset-option">
                <Group wrap="nowrap" align="flex-start">
                  <Radio.Indicator />
                  <div style={{ flex: 1 }}>
                    <Group gap="xs">
                      <Text fw={600}>{d.meta.name}</Text>
                      <Badge size="xs" variant="light">
                        {d.task}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t('dialog.dataset.stats', { images: d.stats?.images ?? 0, classes: d.stats?.classCount ?? 0 })}
                      {d.stats?.classes.length ? ` · ${d.stats.classes.slice(0, 6).join(', ')}${d.stats.classes.length > 6 ? '…' : ''}` : ''}
                    </Text>
                    {!isTrainableTask(d.task) && (
                      <Text size="xs" c="red.8" data-testid="dataset-untrainable">
                        {t('dialog.dataset.untrainable', { task: d.task })}
                      </Text>
                    )}
                  </div>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Radio.Group>
    </Stack>
  );
}

export function ModelStep({
  form,
  set,
  errors,
  projects,
  parents,
  dataset,
  hasProjects,
}: StepProps & { projects: Project[]; parents: Model[] | undefined; dataset: Dataset | null; hasProjects: boolean }) {
  const { t } = useTranslation(TRAINING_NS);
  const err = useErr(errors);
  const mode = hasProjects ? form.projectMode : 'new';
  const arch = architectureId(form.family, form.size, dataset?.task);
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {t('dialog.model.project')}
        </Text>
        {hasProjects && (
          <SegmentedControl
            value={mode}
            onChange={(v) => set({ projectMode: v as TrainForm['projectMode'] })}
            data={[
              { value: 'existing', label: t('dialog.model.existingProject') },
              { value: 'new', label: t('dialog.model.newProject') },
            ]}
          />
        )}
        {mode === 'existing' ? (
          <Select
            aria-label={t('dialog.model.project')}
            placeholder={t('dialog.model.pickProject')}
            data={projects.map((p) => ({ value: p.id, label: p.meta.name }))}
            value={form.projectId}
            onChange={(id) => set({ projectId: id })}
            searchable
            error={err('projectId')}
          />
        ) : (
          <TextInput
            label={t('dialog.model.newProjectName')}
            value={form.newProjectName}
            onChange={(e) => set({ newProjectName: e.currentTarget.value })}
            maxLength={100}
            error={err('newProjectName')}
          />
        )}
      </Stack>
      <TextInput
        label={t('dialog.model.name')}
        placeholder={t('dialog.model.namePlaceholder')}
        value={form.name}
        onChange={(e) => set({ name: e.currentTarget.value })}
        maxLength={100}
        error={err('name')}
      />
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {t('dialog.model.start')}
        </Text>
        <SegmentedControl
          value={form.source}
          onChange={(v) => set({ source: v as TrainForm['source'] })}
          data={[
            { value: 'architecture', label: t('dialog.model.fromArchitecture') },
            { value: 'parent', label: t('dialog.model.fromParent') },
          ]}
        />
      </Stack>
      {form.source === 'architecture' ? (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {t('dialog.model.family')}
              </Text>
              <SegmentedControl
                value={form.family}
                onChange={(v) => set({ family: v as TrainForm['family'] })}
                data={FAMILIES.map((f) => ({ value: f, label: t(`dialog.model.families.${f}`) }))}
              />
            </Stack>
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                {t('dialog.model.size')}
              </Text>
              <SegmentedControl
                value={form.size}
                onChange={(v) => set({ size: v as TrainForm['size'] })}
                data={SIZES.map((s) => ({ value: s, label: t(`dialog.model.sizes.${s}`) }))}
              />
            </Stack>
          </SimpleGrid>
          <Checkbox checked={form.pretrained} onChange={(e) => set({ pretrained: e.currentTarget.checked })} label={t('dialog.model.pretrained')} />
          <Text size="sm" data-testid="architecture-id">
            {t('dialog.model.architecture')} <b>{form.pretrained ? `${arch}.pt` : `${arch}.yaml`}</b>
          </Text>
        </Stack>
      ) : (
        <Select
          label={t('dialog.model.parent')}
          description={t('dialog.model.parentHelp')}
          placeholder={parents === undefined ? t('dialog.loading') : parents.length ? t('dialog.model.pickParent') : t('dialog.model.noParents')}
          data={(parents ?? []).map((m) => ({ value: m.id, label: `${m.meta.name}${m.project.name ? ` · ${m.project.name}` : ''}` }))}
          value={form.parentId}
          onChange={(id) => set({ parentId: id })}
          searchable
          error={err('parentId')}
        />
      )}
    </Stack>
  );
}

export function ConfigStep({ form, set, errors }: StepProps) {
  const { t } = useTranslation(TRAINING_NS);
  const err = useErr(errors);
  const num = (v: string | number) => (v === '' ? '' : typeof v === 'number' ? v : Number(v));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label={t('dialog.config.epochs')}
          value={form.epochs}
          onChange={(v) => set({ epochs: num(v) })}
          min={1}
          max={10000}
          allowDecimal={false}
          error={err('epochs')}
        />
        <NumberInput
          label={t('dialog.config.imageSize')}
          value={form.imageSize}
          onChange={(v) => set({ imageSize: num(v) })}
          min={32}
          max={8192}
          step={32}
          allowDecimal={false}
          error={err('imageSize')}
        />
        <NumberInput
          label={t('dialog.config.batchSize')}
          description={t('dialog.config.batchHelp')}
          value={form.batchSize}
          onChange={(v) => set({ batchSize: num(v) })}
          min={-1}
          max={4096}
          error={err('batchSize')}
        />
        <NumberInput
          label={t('dialog.config.patience')}
          description={t('dialog.config.patienceHelp')}
          value={form.patience}
          onChange={(v) => set({ patience: num(v) })}
          min={0}
          max={10000}
          allowDecimal={false}
          error={err('patience')}
        />
        <Select
          label={t('dialog.config.cache')}
          value={form.cache}
          onChange={(v) => set({ cache: (v ?? 'off') as TrainForm['cache'] })}
          allowDeselect={false}
          data={(['off', 'ram', 'disk'] as const).map((c) => ({ value: c, label: t(`dialog.config.caches.${c}`) }))}
        />
        <TextInput
          label={t('dialog.config.device')}
          placeholder={t('dialog.config.devicePlaceholder')}
          value={form.device}
          onChange={(e) => set({ device: e.currentTarget.value })}
          error={err('device')}
        />
        <NumberInput
          label={t('dialog.config.time')}
          description={t('dialog.config.timeHelp')}
          value={form.time}
          onChange={(v) => set({ time: num(v) })}
          min={0}
          max={10000}
          decimalScale={2}
          error={err('time')}
        />
      </SimpleGrid>
      <Stack gap={6}>
        <Group justify="space-between">
          <div>
            <Text size="sm" fw={500}>
              {t('dialog.config.advanced')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('dialog.config.advancedHelp')}
            </Text>
          </div>
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => set({ advanced: [...form.advanced, { key: '', value: '' }] })}>
            {t('dialog.config.addArg')}
          </Button>
        </Group>
        {form.advanced.map((arg, i) => (
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={t('dialog.config.argKey', { n: i + 1 })}
              placeholder="lr0"
              value={arg.key}
              onChange={(e) => set({ advanced: form.advanced.map((a, j) => (j === i ? { ...a, key: e.currentTarget.value } : a)) })}
              error={errors[`advanced.${i}`] ? t(`dialog.errors.${errors[`advanced.${i}`]}`) : undefined}
              style={{ flex: 1 }}
            />
            <TextInput
              aria-label={t('dialog.config.argValue', { n: i + 1 })}
              placeholder="0.01"
              value={arg.value}
              onChange={(e) => set({ advanced: form.advanced.map((a, j) => (j === i ? { ...a, value: e.currentTarget.value } : a)) })}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('dialog.config.removeArg', { n: i + 1 })}
              onClick={() => set({ advanced: form.advanced.filter((_, j) => j !== i) })}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Stepper, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../../../components/page-loader';
import { isApiError } from '../../../../lib/api-client';
import { errorMessage } from '../../../../lib/i18n';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { useCreateModel } from '../../api/create-model';
import { modelQueryOptions } from '../../api/get-model';
import { modelsQueryOptions } from '../../api/get-models';
import { useProcessedDatasets } from '../../api/training-datasets';
import { useCreateTrainingProject, useTrainingProjects } from '../../api/training-projects';
import { TrainingOptions } from '../training/training-options';
import { ConfigStep, DatasetStep, ModelStep } from './steps';
import { createBody, initialForm, validateStep, type FormErrors, type TrainForm } from './train-form';

/** The three-step train dialog (dataset → model → config, then training options). */
export interface TrainDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Pre-selects a project (opened from a project page). */
  projectId?: string;
  /** Opened from an existing, not yet trained model: start its training. */
  modelId?: string;
}

const LAST_STEP = 2;

function ExistingModelOptions({ modelId }: { modelId: string }) {
  const model = useQuery(modelQueryOptions(modelId));
  if (!model.data) return <PageLoader fullHeight={false} />;
  return <TrainingOptions model={model.data} />;
}

function Wizard({ projectId, onClose }: { projectId?: string; onClose: () => void }) {
  const { t } = useTranslation(TRAINING_NS);
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [form, setForm] = useState<TrainForm>(() => initialForm(projectId));
  const [errors, setErrors] = useState<FormErrors>({});
  const [created, setCreated] = useState<Model | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const datasets = useProcessedDatasets();
  const projects = useTrainingProjects();
  // A parent must have weights to start from.
  const parents = useQuery({
    ...modelsQueryOptions(),
    enabled: form.source === 'parent',
    select: (models) => models.filter((m) => m.files.some((f) => f.kind === 'best')),
  });
  const createProject = useCreateTrainingProject();
  const createModel = useCreateModel();
  const hasProjects = (projects.data?.length ?? 0) > 0;
  const dataset = datasets.data?.find((d) => d.id === form.datasetId) ?? null;

  const set = (patch: Partial<TrainForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k as keyof FormErrors];
      if ('advanced' in patch) for (const k of Object.keys(next)) if (k.startsWith('advanced.')) delete next[k as keyof FormErrors];
      return next;
    });
  };

  const check = (s: number) => {
    const e = validateStep(s, form, { hasProjects, datasetTask: dataset?.task });
    setErrors(e);
    return Object.keys(e).length === 0;
  };

  const next = () => {
    if (check(step)) setStep(step + 1);
  };

  const submit = async () => {
    if (!check(LAST_STEP) || !dataset) return;
    setBusy(true);
    setFailure(null);
    try {
      const existing = hasProjects && form.projectMode === 'existing';
      const project = existing ? form.projectId! : (await createProject.mutateAsync(form.newProjectName.trim())).id;
      // A new project is kept even if the model fails: a retry then puts the model in it.
      if (!existing) setForm((f) => ({ ...f, projectMode: 'existing', projectId: project }));
      const parent = form.source === 'parent' ? (parents.data?.find((m) => m.id === form.parentId) ?? null) : null;
      const model = await createModel.mutateAsync(createBody(form, { projectId: project, dataset, parent }));
      setCreated(model);
      setStep(LAST_STEP + 1);
    } catch (error) {
      // useCreateModel already announces a failed model ('Unable to Create Model'); say it here too, in the dialog.
      setFailure(isApiError(error) ? errorMessage(error.code, error.message) : t('dialog.createFailed'));
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} />} title={t('dialog.created', { name: created.meta.name })}>
          {t('dialog.createdBody')}
        </Alert>
        <TrainingOptions model={created} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('dialog.later')}
          </Button>
          <Button
            onClick={() => {
              onClose();
              navigate(`/models/${created.id}`);
            }}
          >
            {t('dialog.openModel')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label={t('dialog.steps.dataset')} description={dataset?.meta.name}>
          <DatasetStep form={form} set={set} errors={errors} datasets={datasets.data ?? []} loading={datasets.isPending} />
        </Stepper.Step>
        <Stepper.Step label={t('dialog.steps.model')} description={step > 1 ? form.name : undefined}>
          <ModelStep form={form} set={set} errors={errors} projects={projects.data ?? []} parents={parents.data} dataset={dataset} hasProjects={hasProjects} />
        </Stepper.Step>
        <Stepper.Step label={t('dialog.steps.config')}>
          <ConfigStep form={form} set={set} errors={errors} />
        </Stepper.Step>
      </Stepper>
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
      {Object.keys(errors).length > 0 && (
        <Text size="sm" c="red.8" role="alert">
          {t('dialog.fixErrors')}
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={step === 0 ? onClose : () => setStep(step - 1)}>
          {step === 0 ? t('dialog.cancel') : t('dialog.back')}
        </Button>
        {step < LAST_STEP ? (
          <Button onClick={next} disabled={step === 0 && !datasets.data?.length}>
            {t('dialog.next')}
          </Button>
        ) : (
          <Button onClick={() => void submit()} loading={busy}>
            {t('dialog.create')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

export function TrainDialog({ opened, onClose, projectId, modelId }: TrainDialogProps) {
  const { t } = useTranslation(TRAINING_NS);
  return (
    <Modal opened={opened} onClose={onClose} title={modelId ? t('dialog.titleExisting') : t('dialog.title')} size="xl" centered>
      {/* Mounted only while open: every opening starts from a fresh form. */}
      {opened && (modelId ? <ExistingModelOptions modelId={modelId} /> : <Wizard projectId={projectId} onClose={onClose} />)}
    </Modal>
  );
}

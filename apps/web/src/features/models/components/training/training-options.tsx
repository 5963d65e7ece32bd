import { useState } from 'react';
import { Alert, Badge, Group, Paper, Stack, Tabs, Text, ThemeIcon } from '@mantine/core';
import { IconCloud, IconDeviceDesktop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { Trans, useTranslation } from 'react-i18next';
import { ApiKeyPicker, useApiKeyChoice } from '../../../../components/api-key-picker';
import { CodeSnippet } from '../../../../components/code-snippet';
import { useMe } from '../../../../lib/auth';
import { legacyTrainSnippet, PLATFORM_CLIENT_MIN_VERSION, platformTrainSnippet } from '../../../../lib/client-snippets';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { useRemoteConfig } from '../../../../lib/remote-config';
import { useTrainingDataset } from '../../api/training-datasets';
import { modelQueryOptions } from '../../api/get-model';
import { useTrainingProject } from '../../api/training-projects';
import { CloudTrainingForm } from '../../../agents';

/**
 * The `model=` argument for current clients: the parent model as a `ul://` URI, official weights
 * for a pretrained start, else the architecture file (training from scratch).
 */
export function platformModelArg(model: Pick<Model, 'lineage'>, parent?: { owner: string; projectSlug: string; slug: string } | null): string {
  const p = model.lineage.parent;
  if (p.url?.startsWith('ul://')) return p.url;
  if (parent) return `ul://${parent.owner}/${parent.projectSlug}/${parent.slug}`;
  if (p.name && /\.pt$/i.test(p.name) && !p.id) return p.name;
  const arch = model.lineage.architecture;
  const name = arch.name ?? arch.id ?? 'yolo11n';
  return /\.(ya?ml|pt)$/i.test(name) ? name : `${name}.yaml`;
}

const origin = () => window.location.origin;

function useParentRef(model: Model) {
  const parentId = model.lineage.parent.id;
  const parent = useQuery({ ...modelQueryOptions(parentId ?? ''), enabled: Boolean(parentId) });
  const project = useTrainingProject(parent.data?.project.id);
  if (!parentId || !parent.data || !project.data) return null;
  return { owner: parent.data.owner.username, projectSlug: project.data.slug, slug: parent.data.slug };
}

/**
 * How to train a model that is still New: "bring your own agent" with copy-ready setups for both
 * client generations, and cloud training (not available yet). Shown after the train dialog creates
 * a model and on the model's Training tab until a client reports.
 */
export function TrainingOptions({ model }: { model: Model }) {
  const { t } = useTranslation(TRAINING_NS);
  const { user } = useMe();
  const { config } = useRemoteConfig();
  const choice = useApiKeyChoice();
  const dataset = useTrainingDataset(model.dataset.id);
  const project = useTrainingProject(model.project.id);
  const parent = useParentRef(model);

  const platform = platformTrainSnippet({
    origin: origin(),
    key: choice.key,
    username: model.owner.username,
    datasetSlug: dataset.data?.slug ?? '<dataset>',
    projectSlug: project.data?.slug ?? '<project>',
    modelSlug: model.slug,
    model: platformModelArg(model, parent),
    config: model.config,
  });
  const legacy = legacyTrainSnippet({ origin: origin(), legacyKey: choice.legacyKey, modelId: model.id });
  const cloudAllowed = user?.plan !== 'free' && config.flags.cloudTraining;
  // Why not, in the user's words: the server has it off (ask the admin) or the plan lacks it (ADR 0030).
  const cloudWhyNot = !config.flags.cloudTraining ? 'flagOff' : 'needsPlan';
  const [where, setWhere] = useState<'agent' | 'cloud'>('agent');
  const cloud = cloudAllowed && where === 'cloud';
  const selected = { borderColor: 'var(--mantine-color-blue-5)', borderWidth: 2, cursor: 'pointer' } as const;

  return (
    <Stack gap="md" data-testid="training-options">
      <Group grow align="stretch" gap="sm" role="radiogroup" aria-label={t('options.title')}>
        <Paper
          withBorder
          radius="md"
          p="sm"
          role="radio"
          aria-checked={!cloud}
          onClick={() => setWhere('agent')}
          style={cloud ? { cursor: 'pointer' } : selected}
          data-testid="agent-training-option"
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size="lg">
              <IconDeviceDesktop size={20} />
            </ThemeIcon>
            <div>
              <Text fw={600}>{t('options.agent.title')}</Text>
              <Text size="sm" c="dimmed">
                {t('options.agent.body')}
              </Text>
            </div>
          </Group>
        </Paper>
        <Paper
          withBorder
          radius="md"
          p="sm"
          role="radio"
          aria-checked={cloud}
          aria-disabled={!cloudAllowed}
          data-testid="cloud-training-option"
          onClick={() => cloudAllowed && setWhere('cloud')}
          style={cloudAllowed ? (cloud ? selected : { cursor: 'pointer' }) : { opacity: 0.65, cursor: 'not-allowed' }}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" color={cloudAllowed ? 'blue' : 'gray'} size="lg">
              <IconCloud size={20} />
            </ThemeIcon>
            <div>
              <Group gap={6}>
                <Text fw={600}>{t('options.cloud.title')}</Text>
                {!cloudAllowed && (
                  <Badge size="xs" variant="light" color="gray">
                    {t(`options.cloud.badge.${cloudWhyNot}`)}
                  </Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed">
                {cloudAllowed ? t('options.cloud.ready') : t(`options.cloud.${cloudWhyNot}`)}
              </Text>
            </div>
          </Group>
        </Paper>
      </Group>

      {cloud && <CloudTrainingForm model={model} />}
      {!cloud && (
        <>
          <ApiKeyPicker choice={choice} newKeyName={t('keys.trainingKeyName', { model: model.meta.name }).slice(0, 64)} />

          {!model.dataset.id && (
            <Alert color="yellow" variant="light">
              {t('options.noDataset')}
            </Alert>
          )}

          <Tabs defaultValue="platform" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="platform">{t('options.platformTab', { version: PLATFORM_CLIENT_MIN_VERSION })}</Tabs.Tab>
              <Tabs.Tab value="legacy">{t('options.legacyTab', { version: PLATFORM_CLIENT_MIN_VERSION })}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="platform" pt="sm">
              <Stack gap="xs">
                <Text size="sm">
                  <Trans
                    t={t}
                    i18nKey="options.platformHelp"
                    values={{ project: `${model.owner.username}/${project.data?.slug ?? ''}`, name: model.slug }}
                    components={{ b: <b /> }}
                  />
                </Text>
                <CodeSnippet
                  code={platform}
                  secrets={[choice.secret?.key]}
                  revealed={choice.revealed}
                  label={t('options.platformSnippet')}
                  testId="platform-snippet"
                />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="legacy" pt="sm">
              <Stack gap="xs">
                <Text size="sm">{t('options.legacyHelp')}</Text>
                <CodeSnippet
                  code={legacy}
                  secrets={[choice.secret?.legacyKey]}
                  revealed={choice.revealed}
                  label={t('options.legacySnippet')}
                  testId="legacy-snippet"
                />
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </Stack>
  );
}

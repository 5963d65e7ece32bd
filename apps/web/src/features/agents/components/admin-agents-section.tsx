import { useState } from 'react';
import { Badge, Button, Code, Group, NumberInput, Paper, Select, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { IconFileText, IconPlus, IconX } from '@tabler/icons-react';
import type { GpuType } from '@sightline/contracts';
import { formatDateTime, formatRelative } from '../../../lib/dates';
import { useCancelAgentJob } from '../api/cancel-agent-job';
import { useDeleteGpuType } from '../api/delete-gpu-type';
import { useAdminGpuTypes } from '../api/get-admin-gpu-types';
import { useAgentJobs } from '../api/get-agent-jobs';
import { useAgents } from '../api/get-agents';
import { useSaveGpuType, type GpuTypeInput } from '../api/save-gpu-type';
import { usd, useAgentsT } from '../i18n';
import { JobLogModal } from './job-log-modal';
import { notifyError } from '../../../lib/notify-error';
import { AgentCapability, AgentOnlineBadge, RevokeAgentButton } from './agent-cells';
import { NewAgentToken } from './new-agent-token';

function AgentsTable() {
  const { t } = useAgentsT();
  const agents = useAgents('all');
  const live = (agents.data ?? []).filter((a) => !a.revoked);
  return (
    <Stack gap="sm">
      <NewAgentToken
        shared
        label={t('admin.newAgent')}
        placeholder="gpu-host-1"
        testIds={{ name: 'agent-name', create: 'agent-create', token: 'agent-token' }}
      />
      {live.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.noAgents')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" data-testid="agents-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.cols.agent')}</Table.Th>
                <Table.Th>{t('admin.cols.gpu')}</Table.Th>
                <Table.Th>{t('admin.cols.job')}</Table.Th>
                <Table.Th>{t('admin.cols.heartbeat')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {live.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <AgentOnlineBadge agent={a} />
                      <Text size="sm" fw={500}>
                        {a.name}
                      </Text>
                      {!a.shared && (
                        <Badge size="xs" variant="light">
                          {t('admin.private')}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {[a.hostname, a.ultralyticsVersion && `ultralytics ${a.ultralyticsVersion}`, a.tokenPrefix + '…'].filter(Boolean).join(' · ')}
                    </Text>
                    <AgentCapability agent={a} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {a.gpu
                        ? `${a.gpu.name}${a.gpu.memoryMb ? ` (${Math.round(a.gpu.memoryMb / 1024)} GB)` : ''}${a.gpu.count > 1 ? ` × ${a.gpu.count}` : ''}`
                        : t('admin.noGpu')}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {a.gpuType ?? t('admin.noType')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.currentJob ? `${a.currentJob.kind} · ${a.currentJob.status}` : '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.lastHeartbeat ? formatRelative(a.lastHeartbeat) : t('admin.never')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <RevokeAgentButton agent={a} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

const emptyType: GpuTypeInput = { id: '', name: '', device: 'gpu', match: '', hourlyRateMicro: 1_000_000, imagesPerSecond: 200, enabled: true };

function GpuTypesTable() {
  const { t } = useAgentsT();
  const types = useAdminGpuTypes();
  const save = useSaveGpuType();
  const remove = useDeleteGpuType();
  const [form, setForm] = useState<GpuTypeInput>(emptyType);
  const edit = (g: GpuType) =>
    setForm({
      id: g.id,
      name: g.name,
      device: g.device,
      match: g.match,
      hourlyRateMicro: g.hourlyRateMicro,
      imagesPerSecond: g.imagesPerSecond,
      enabled: g.enabled,
    });
  return (
    <Stack gap="sm">
      {(types.data ?? []).length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" data-testid="gpu-types-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.gpu.name')}</Table.Th>
                <Table.Th>{t('admin.gpu.match')}</Table.Th>
                <Table.Th>{t('admin.gpu.rate')}</Table.Th>
                <Table.Th>{t('admin.gpu.online')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(types.data ?? []).map((g) => (
                <Table.Tr key={g.id} style={{ opacity: g.enabled ? 1 : 0.5 }}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {g.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {g.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {g.device === 'cpu' && `${t('admin.gpu.devices.cpu')}: `}
                    <Code>{g.match}</Code>
                  </Table.Td>
                  <Table.Td>{usd(g.hourlyRateMicro)}/h</Table.Td>
                  <Table.Td>{g.online}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="subtle" onClick={() => edit(g)}>
                        {t('admin.gpu.edit')}
                      </Button>
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => remove.mutate(g.id, { onError: notifyError })}>
                        {t('admin.gpu.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap" data-testid="gpu-type-form">
        <TextInput label={t('admin.gpu.id')} placeholder="rtx-4090" value={form.id} onChange={(e) => setForm({ ...form, id: e.currentTarget.value })} w={130} />
        <TextInput
          label={t('admin.gpu.name')}
          placeholder="RTX 4090"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          w={150}
        />
        <Select
          label={t('admin.gpu.device')}
          value={form.device ?? 'gpu'}
          onChange={(v) => setForm({ ...form, device: (v ?? 'gpu') as 'gpu' | 'cpu' })}
          allowDeselect={false}
          data={(['gpu', 'cpu'] as const).map((d) => ({ value: d, label: t(`admin.gpu.devices.${d}`) }))}
          w={140}
          data-testid="gpu-type-device"
        />
        <TextInput
          label={form.device === 'cpu' ? t('admin.gpu.matchCpu') : t('admin.gpu.match')}
          placeholder={form.device === 'cpu' ? '*' : 'RTX 4090'}
          value={form.match}
          onChange={(e) => setForm({ ...form, match: e.currentTarget.value })}
          w={150}
        />
        <NumberInput
          label={t('admin.gpu.rateInput')}
          value={form.hourlyRateMicro / 1_000_000}
          onChange={(v) => setForm({ ...form, hourlyRateMicro: Math.round((Number(v) || 0) * 1_000_000) })}
          min={0}
          step={0.1}
          decimalScale={2}
          w={120}
        />
        <Switch label={t('admin.gpu.enabled')} checked={form.enabled ?? true} onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })} mb={6} />
        <Button
          leftSection={<IconPlus size={16} />}
          disabled={!form.id || !form.name || !form.match}
          loading={save.isPending}
          onClick={() => save.mutate(form, { onSuccess: () => setForm(emptyType), onError: notifyError })}
        >
          {t('admin.gpu.save')}
        </Button>
      </Group>
    </Stack>
  );
}

function JobsTable() {
  const { t } = useAgentsT();
  const jobs = useAgentJobs();
  const cancel = useCancelAgentJob();
  const [logOf, setLogOf] = useState<string | null>(null);
  const rows = jobs.data ?? [];
  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.noJobs')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={620}>
          <Table verticalSpacing="xs" data-testid="agent-jobs-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.cols.job')}</Table.Th>
                <Table.Th>{t('admin.cols.status')}</Table.Th>
                <Table.Th>{t('admin.cols.created')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((j) => (
                <Table.Tr key={j.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {j.kind} · <a href={`/models/${j.modelId}`}>{j.modelName ?? j.modelId}</a>
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[j.gpuType, j.attempts > 1 && t('admin.attempt', { n: j.attempts }), j.error?.split('\n')[0]].filter(Boolean).join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={j.status === 'queued' ? 'gray' : 'blue'}>
                      {j.cancelRequested ? t('admin.stopping') : j.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(j.created)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="subtle" leftSection={<IconFileText size={14} />} onClick={() => setLogOf(j.id)}>
                        {t('admin.log')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        leftSection={<IconX size={14} />}
                        disabled={j.cancelRequested}
                        onClick={() => cancel.mutate(j.id, { onError: notifyError })}
                      >
                        {t('admin.cancel')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <JobLogModal jobId={logOf} live onClose={() => setLogOf(null)} />
    </Stack>
  );
}

/** Admin page section: GPU agents (shared pool tokens), GPU types and rates, queued/running jobs. */
export function AdminAgentsSection() {
  const { t } = useAgentsT();
  return (
    <Paper withBorder radius="md" p="lg" data-testid="admin-agents">
      <Stack gap="lg">
        <div>
          <Title order={3} fz="md">
            {t('admin.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('admin.subtitle')}
          </Text>
        </div>
        <AgentsTable />
        <Title order={4} fz="sm">
          {t('admin.gpuTitle')}
        </Title>
        <GpuTypesTable />
        <Title order={4} fz="sm">
          {t('admin.jobsTitle')}
        </Title>
        <JobsTable />
      </Stack>
    </Paper>
  );
}

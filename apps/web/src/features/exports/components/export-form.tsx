import { useState } from 'react';
import { Button, Checkbox, Collapse, Group, NumberInput, Select, SimpleGrid, Stack, UnstyledButton, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPackageExport } from '@tabler/icons-react';
import { EXPORT_FORMATS, EXPORT_OUTPUTS, type ExportFormat, type ExportOptions } from '@sightline/contracts';
import { useCreateExport } from '../api/create-export';
import { notifyError } from '../../../lib/notify-error';
import { useExportsT } from '../i18n';

const FLAGS = ['half', 'int8', 'dynamic', 'simplify', 'nms'] as const;

/** Pick a format and, optionally, ultralytics' export arguments under their own names. */
export function ExportForm({ modelId }: { modelId: string }) {
  const { t } = useExportsT();
  const create = useCreateExport(modelId);
  const [format, setFormat] = useState<ExportFormat>('onnx');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<ExportOptions>({});
  const set = (patch: Partial<ExportOptions>) =>
    setOptions((o) => Object.fromEntries(Object.entries({ ...o, ...patch }).filter(([, v]) => v !== undefined && v !== false)) as ExportOptions);
  const num = (v: string | number) => (typeof v === 'number' ? v : undefined);

  const submit = () => create.mutate({ format, options }, { onError: notifyError });

  return (
    <Stack gap="xs" data-testid="export-form">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('format')}
          data={EXPORT_FORMATS.map((f) => ({ value: f, label: `${EXPORT_OUTPUTS[f].label} (${f})` }))}
          value={format}
          onChange={(v) => v && setFormat(v as ExportFormat)}
          allowDeselect={false}
          w={260}
          data-testid="export-format"
        />
        <Button leftSection={<IconPackageExport size={16} />} onClick={submit} loading={create.isPending} data-testid="export-start">
          {t('start')}
        </Button>
      </Group>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <Group gap={4}>
          {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          <Text size="sm" c="dimmed">
            {t('advanced')}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <NumberInput
              label={t('options.imgsz')}
              placeholder="640"
              min={32}
              max={4096}
              step={32}
              allowDecimal={false}
              value={options.imgsz ?? ''}
              onChange={(v) => set({ imgsz: num(v) })}
            />
            <NumberInput
              label={t('options.batch')}
              placeholder="1"
              min={1}
              max={1024}
              allowDecimal={false}
              value={options.batch ?? ''}
              onChange={(v) => set({ batch: num(v) })}
            />
            <NumberInput
              label={t('options.opset')}
              placeholder="auto"
              min={7}
              max={30}
              allowDecimal={false}
              value={options.opset ?? ''}
              onChange={(v) => set({ opset: num(v) })}
            />
          </SimpleGrid>
          <Group gap="lg">
            {FLAGS.map((f) => (
              <Checkbox key={f} label={t(`options.${f}`)} checked={Boolean(options[f])} onChange={(e) => set({ [f]: e.currentTarget.checked })} />
            ))}
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}

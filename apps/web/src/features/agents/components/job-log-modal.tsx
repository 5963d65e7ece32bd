import { Code, Modal, ScrollArea } from '@mantine/core';
import { useJobLog } from '../api/get-job-log';
import { useAgentsT } from '../i18n';

/** The console an agent streamed for a job (yolo's own output plus the agent's lines). */
export function JobLogModal({ jobId, live, onClose }: { jobId: string | null; live: boolean; onClose: () => void }) {
  const { t } = useAgentsT();
  const log = useJobLog(jobId, live);
  return (
    <Modal opened={Boolean(jobId)} onClose={onClose} title={t('log.title')} size="xl">
      <ScrollArea.Autosize mah="65vh">
        <Code block data-testid="job-log" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {log.data?.lines.join('') || t('log.empty')}
        </Code>
      </ScrollArea.Autosize>
    </Modal>
  );
}

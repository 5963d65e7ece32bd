import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ErrorCode, formatBytes } from '@sightline/contracts';
import type { UploadProblem } from '../upload/dataset-upload';
import { useDatasetsT } from '../i18n';

/** InsufficientStorageError with available versus required bytes (spec §5), NoArchiveProvided, or another refusal. */
export function UploadProblemAlert({ problem, onClose }: { problem: UploadProblem; onClose?: () => void }) {
  const { t } = useDatasetsT();
  const storage = problem.code === ErrorCode.InsufficientStorage;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle size={18} />}
      title={storage ? t('problem.storageTitle') : problem.code === ErrorCode.NoArchiveProvided ? t('problem.noArchiveTitle') : t('problem.title')}
      withCloseButton={!!onClose}
      onClose={onClose}
      data-testid="upload-problem"
      data-code={problem.code}
    >
      {storage && problem.available !== undefined && problem.required !== undefined ? (
        <Text size="sm">{t('problem.storageBody', { available: formatBytes(problem.available), required: formatBytes(problem.required) })}</Text>
      ) : (
        <Text size="sm">{problem.message}</Text>
      )}
    </Alert>
  );
}

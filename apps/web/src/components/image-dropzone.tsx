import { useState } from 'react';
import { Alert, Group, Stack, Text } from '@mantine/core';
import { Dropzone, IMAGE_MIME_TYPE, type FileWithPath } from '@mantine/dropzone';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { Messages } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import '@mantine/dropzone/styles.css';

/** A drop zone that accepts only images; anything else shows 'Must be a valid image file!' (spec §5). */
export function ImageDropzone({ onImage, loading, maxSize = 5 * 1024 * 1024 }: { onImage: (file: FileWithPath) => void; loading?: boolean; maxSize?: number }) {
  const [invalid, setInvalid] = useState(false);
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => {
          setInvalid(false);
          if (files[0]) onImage(files[0]);
        }}
        onReject={() => setInvalid(true)}
        accept={IMAGE_MIME_TYPE}
        maxFiles={1}
        multiple={false}
        maxSize={maxSize}
        loading={loading}
        aria-label={t('imageDropzone.label')}
        data-testid="image-dropzone"
      >
        <Group justify="center" gap="md" mih={90} style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <IconUpload size={36} aria-hidden />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={36} aria-hidden />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconPhoto size={36} aria-hidden />
          </Dropzone.Idle>
          <div>
            <Text size="sm" fw={500}>
              {t('imageDropzone.title')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('imageDropzone.hint')}
            </Text>
          </div>
        </Group>
      </Dropzone>
      {invalid && (
        <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={t('close')} onClose={() => setInvalid(false)}>
          {Messages.invalidImage}
        </Alert>
      )}
    </Stack>
  );
}

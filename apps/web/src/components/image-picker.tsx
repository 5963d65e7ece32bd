import { useEffect, useMemo } from 'react';
import { Group, Image, Input, Stack, Text } from '@mantine/core';
import { ImageDropzone } from './image-dropzone';

/** A chosen image as an object URL for the preview; revoked when replaced or unmounted. */
function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * An image field of a form: the image-only drop zone with a preview of the chosen file (or of the
 * current image) and the chosen file's name.
 */
export function ImagePicker({
  label,
  description,
  current,
  file,
  onFile,
  loading,
  alt = '',
  previewSize = { h: 64, w: 112 },
}: {
  label: string;
  description?: string;
  current: string | null | undefined;
  file: File | null;
  onFile: (file: File) => void;
  loading?: boolean;
  alt?: string;
  previewSize?: { h: number; w: number };
}) {
  const preview = usePreviewUrl(file);
  const shown = preview ?? current ?? null;
  return (
    <Input.Wrapper label={label} description={description}>
      <Stack gap="xs" mt={6}>
        {shown && (
          <Group gap="sm" align="center">
            <Image src={shown} alt={alt} h={previewSize.h} w={previewSize.w} fit="cover" radius="sm" />
            {file && (
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {file.name}
              </Text>
            )}
          </Group>
        )}
        <ImageDropzone onImage={onFile} loading={loading} />
      </Stack>
    </Input.Wrapper>
  );
}

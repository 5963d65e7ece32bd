import { useEffect, useMemo, useState } from 'react';
import { Alert, Group, Image, Input, Stack, Text } from '@mantine/core';
import { checkSvgFile, isSvgFile } from '../lib/svg-check';
import { ImageDropzone } from './image-dropzone';

/** A chosen image as an object URL for the preview; revoked when replaced or unmounted. */
function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * An image field of a form: the image-only drop zone with a preview of the chosen file (or of the
 * current image) and the chosen file's name. An SVG is read first: a broken one is not taken and
 * shows the spec's 'Loaded file is not valid SVG' or 'Error loading SVG' (spec §8).
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
  const [svgError, setSvgError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const take = (chosen: File) => {
    setSvgError(null);
    if (!isSvgFile(chosen)) return onFile(chosen);
    setChecking(true);
    void checkSvgFile(chosen)
      .then((problem) => (problem ? setSvgError(problem) : onFile(chosen)))
      .finally(() => setChecking(false));
  };
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
        <ImageDropzone onImage={take} loading={loading || checking} />
        {svgError && (
          <Alert color="red" variant="light" role="alert" data-testid="svg-error">
            {svgError}
          </Alert>
        )}
      </Stack>
    </Input.Wrapper>
  );
}

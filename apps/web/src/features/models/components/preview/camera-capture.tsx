import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TRAINING_NS } from '../../../../lib/i18n-training';

/** getUserMedia exists only in secure contexts (https, localhost): without it the option is hidden. */
export const cameraAvailable = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/** A live camera view; Capture turns the current frame into a JPEG file. */
export function CameraCapture({ onCapture }: { onCapture: (file: File) => void }) {
  const { t } = useTranslation(TRAINING_NS);
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let cancelled = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then((s) => {
        if (cancelled) {
          s.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = s;
        if (video.current) {
          video.current.srcObject = s;
          void video.current.play().catch(() => undefined);
        }
      })
      .catch((e: Error) => setError(e.name === 'NotAllowedError' ? t('camera.denied') : t('camera.failed', { message: e.message })));
    return () => {
      cancelled = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [t]);

  const capture = () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    canvas.toBlob((blob) => blob && onCapture(new File([blob], `camera-${Date.now()}.jpg`, { type: 'image/jpeg' })), 'image/jpeg', 0.92);
  };

  if (error)
    return (
      <Alert color="red" variant="light">
        {error}
      </Alert>
    );
  return (
    <Stack gap="xs" align="flex-start">
      <video
        ref={video}
        muted
        playsInline
        onLoadedData={() => setReady(true)}
        style={{ maxWidth: '100%', maxHeight: 360, borderRadius: 4, background: '#000' }}
        aria-label={t('camera.view')}
      />
      <Group>
        <Button leftSection={<IconCamera size={16} />} onClick={capture} disabled={!ready}>
          {t('camera.capture')}
        </Button>
      </Group>
    </Stack>
  );
}

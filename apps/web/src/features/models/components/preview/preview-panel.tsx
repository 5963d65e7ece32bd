import type { Model } from '@sightline/contracts';
import { Text } from '@mantine/core';

/** Preview tab of the model page (run inference on an image). Owned by the inference work. */
export function PreviewPanel({ model }: { model: Model }) {
  return <Text c="dimmed">Preview for {model.meta.name} appears here.</Text>;
}

import type { Model } from '@sightline/contracts';
import { Text } from '@mantine/core';

/** Training tab of the model page (status, epochs, live charts, console, stop/resume). Owned by the training work. */
export function TrainingPanel({ model }: { model: Model }) {
  return <Text c="dimmed">Training details for {model.meta.name} appear here.</Text>;
}

import { Badge } from '@mantine/core';
import { IconBoxMultiple, IconCategory, IconPolygon, IconRectangle, IconStretching, IconVectorTriangle } from '@tabler/icons-react';
import { useDatasetsT } from '../i18n';

const ICONS: Record<string, typeof IconRectangle> = {
  detect: IconRectangle,
  segment: IconPolygon,
  'semantic-segment': IconVectorTriangle,
  classify: IconCategory,
  pose: IconStretching,
  obb: IconBoxMultiple,
};

export function TaskBadge({ task, size = 'md' }: { task: string; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useDatasetsT();
  const Icon = ICONS[task] ?? IconRectangle;
  return (
    <Badge size={size} variant="outline" color="gray.7" leftSection={<Icon size={12} aria-hidden />} data-testid="task-badge">
      {t(`tasks.${task}`, { defaultValue: task })}
    </Badge>
  );
}

import { Badge, Card, Group, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { RoboflowPreview } from '@sightline/contracts';

const PALETTE = ['#e8590c', '#1c7ed6', '#2f9e44', '#ae3ec9', '#f08c00', '#0ca678', '#d6336c', '#4263eb'];
export const colorFor = (label: string, classes: string[]) => PALETTE[Math.max(0, classes.indexOf(label)) % PALETTE.length]!;

/** One preview with its labels drawn over it (Roboflow boxes are centre + size in image pixels). */
function PreviewImage({ preview, classes }: { preview: RoboflowPreview; classes: string[] }) {
  const w = preview.width || 1;
  const h = preview.height || 1;
  return (
    <Card withBorder padding={0} radius="md" data-testid="roboflow-preview" data-boxes={preview.boxes.length}>
      <div style={{ position: 'relative', aspectRatio: `${w} / ${h}`, background: 'var(--mantine-color-gray-1)' }}>
        {preview.image && (
          <img src={preview.image} alt={preview.name} style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }} />
        )}
        <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} aria-hidden>
          {preview.boxes.map((b, i) => {
            const color = colorFor(b.label, classes);
            return b.points?.length ? (
              <polygon
                key={i}
                data-label={b.label}
                points={b.points.map((p) => `${p.x},${p.y}`).join(' ')}
                fill={`${color}33`}
                stroke={color}
                strokeWidth={Math.max(w, h) / 150}
              />
            ) : (
              <rect
                key={i}
                data-label={b.label}
                x={b.x - b.width / 2}
                y={b.y - b.height / 2}
                width={b.width}
                height={b.height}
                fill={`${color}22`}
                stroke={color}
                strokeWidth={Math.max(w, h) / 150}
              />
            );
          })}
        </svg>
      </div>
      <Group gap={4} p={6} wrap="wrap">
        {preview.labels.length === 0 && (
          <Text size="xs" c="dimmed">
            —
          </Text>
        )}
        {preview.labels.map((l) => (
          <Badge key={l} size="xs" variant="light" styles={{ root: { color: colorFor(l, classes), background: `${colorFor(l, classes)}1f` } }}>
            {l}
          </Badge>
        ))}
      </Group>
    </Card>
  );
}

export function PreviewGrid({ previews, classes, loading }: { previews: RoboflowPreview[] | undefined; classes: string[]; loading: boolean }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" data-testid="roboflow-previews">
      {loading && Array.from({ length: 5 }, (_, i) => <Skeleton key={i} h={140} radius="md" />)}
      {previews?.map((p) => (
        <PreviewImage key={p.id} preview={p} classes={classes} />
      ))}
    </SimpleGrid>
  );
}

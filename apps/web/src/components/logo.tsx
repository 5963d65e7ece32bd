import { Group, Text } from '@mantine/core';

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#2a6ef2" />
      <circle cx="32" cy="32" r="16" fill="none" stroke="#fff" strokeWidth="5" />
      <circle cx="32" cy="32" r="6.5" fill="#a5d8ff" />
      <path d="M6 32h9M49 32h9" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}

/** The Sightline logo; `label` is the accessible name when the wordmark is hidden. */
export function Logo({ withText = true, size = 28, color }: { withText?: boolean; size?: number; color?: string }) {
  return (
    <Group gap={10} wrap="nowrap" role={withText ? undefined : 'img'} aria-label={withText ? undefined : 'Sightline'}>
      <LogoMark size={size} />
      {withText && (
        <Text fw={700} fz={size * 0.7} c={color} style={{ letterSpacing: '-0.01em' }}>
          Sightline
        </Text>
      )}
    </Group>
  );
}

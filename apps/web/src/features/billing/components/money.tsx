import { Text, type TextProps } from '@mantine/core';
import { formatMicroUsd } from '@sightline/contracts';

/** An amount of micro-USD as dollars and cents; signed amounts are coloured. */
export function Money({ micro, signed = false, ...props }: { micro: number; signed?: boolean } & TextProps) {
  const color = signed ? (micro > 0 ? 'teal.7' : micro < 0 ? 'red.7' : undefined) : undefined;
  return (
    <Text span c={color} style={{ fontVariantNumeric: 'tabular-nums' }} {...props}>
      {signed && micro > 0 ? '+' : ''}
      {formatMicroUsd(micro)}
    </Text>
  );
}

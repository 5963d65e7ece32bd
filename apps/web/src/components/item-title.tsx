import { Title, Tooltip, type TitleProps } from '@mantine/core';

/**
 * The name of an item as a page title: at most two lines, then an ellipsis, with the whole name in a
 * tooltip; it breaks inside a long word only when it must, never down to a letter per line (its
 * header gives it a minimum width).
 */
export function ItemTitle({ name, ...props }: { name: string } & Omit<TitleProps, 'children'>) {
  return (
    <Tooltip label={name} multiline maw={360} openDelay={300} events={{ hover: true, focus: false, touch: true }}>
      <Title order={1} fz={{ base: 22, sm: 26 }} lineClamp={2} style={{ overflowWrap: 'anywhere' }} {...props}>
        {name}
      </Title>
    </Tooltip>
  );
}

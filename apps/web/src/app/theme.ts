import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Sightline brand blue; "pending" notifications use its dark end (spec §8: dark blue). */
const brand: MantineColorsTuple = ['#e8f1ff', '#d0e0ff', '#a0bffa', '#6d9cf6', '#4480f3', '#2a6ef2', '#1a64f3', '#0b54d9', '#004ac3', '#0040ad'];
const night: MantineColorsTuple = ['#c9d1e3', '#a7b2cb', '#8592b1', '#5f6d8f', '#3f4d6f', '#2a3757', '#1f2a45', '#172036', '#111829', '#0b111f'];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand, night },
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
});

/** Dimmed text dark enough for WCAG AA on white and on gray-0 backgrounds. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#596169', '--mantine-color-error': '#c02626' },
  dark: {},
});


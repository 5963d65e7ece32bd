import { Center, Image } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import type { Project } from '@sightline/contracts';
import { useLogoLoadWarning } from '../../../lib/logo-load';

/** The cover image, or a calm placeholder when the project has none. */
export function ProjectCover({
  project,
  height,
  width,
  radius,
}: {
  project: Pick<Project, 'image' | 'meta'>;
  height: number;
  width?: number | string;
  radius?: number | string;
}) {
  const watch = useLogoLoadWarning(project.image.url, 'project cover');
  if (project.image.url) {
    return <Image src={project.image.url} alt="" h={height} w={width} fit="cover" radius={radius} {...watch} />;
  }
  return (
    <Center h={height} w={width} bg="var(--mantine-color-brand-0)" style={{ borderRadius: radius }} aria-hidden>
      <IconFolder size={Math.min(48, height / 2)} color="var(--mantine-color-brand-4)" stroke={1.5} />
    </Center>
  );
}

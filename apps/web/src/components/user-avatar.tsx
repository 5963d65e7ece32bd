import { Avatar, type AvatarProps } from '@mantine/core';
import { robotImageFor, type User } from '@sightline/contracts';
import { useLogoLoadWarning } from '../lib/logo-load';

/** Profile image, or the robot image chosen by email (spec §3). */
export function UserAvatar({ user, ...props }: { user: Pick<User, 'image' | 'email' | 'username' | 'firstName'> } & AvatarProps) {
  const src = user.image || robotImageFor(user.email);
  const name = user.username || user.firstName || user.email;
  const watch = useLogoLoadWarning(user.image || null, 'profile image');
  return <Avatar src={src} alt={`Profile image of ${name}`} radius="xl" imageProps={watch} {...props} />;
}

import { Avatar, type AvatarProps } from '@mantine/core';
import { robotImageFor, type User } from '@sightline/contracts';

/** Profile image, or the robot image chosen by email (spec §3). */
export function UserAvatar({ user, ...props }: { user: Pick<User, 'image' | 'email' | 'username' | 'firstName'> } & AvatarProps) {
  const src = user.image || robotImageFor(user.email);
  const name = user.username || user.firstName || user.email;
  return <Avatar src={src} alt={`Profile image of ${name}`} radius="xl" {...props} />;
}

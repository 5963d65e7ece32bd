import { Outlet } from 'react-router';

/** Landing layout: bare (spec §2); the auth pages bring their own split screen. */
export function LandingLayout() {
  return <Outlet />;
}

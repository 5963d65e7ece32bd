import { useEffect, useState, type ReactNode } from 'react';
import { isPaidPlan } from '@sightline/contracts';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { isInIframe } from '../lib/iframe';
import { getRedirect, rememberRedirect, takeRedirect, useMe } from '../lib/auth';

/** Guards of spec §2. Each renders its children (or the nested routes) when allowed. */

export function AuthGuard({ children }: { children?: ReactNode }) {
  const { user, isPending } = useMe();
  const location = useLocation();
  if (isPending) return <PageLoader />;
  if (!user) {
    rememberRedirect(`${location.pathname}${location.search}`);
    return <Navigate to="/signin" replace />;
  }
  return <>{children ?? <Outlet />}</>;
}

/** Sends a signed-in user to the saved path (once) or /home. */
function RedirectToSaved() {
  const navigate = useNavigate();
  const [target] = useState(getRedirect);
  useEffect(() => {
    takeRedirect();
    navigate(target, { replace: true });
  }, [navigate, target]);
  return <PageLoader />;
}

export function GuestGuard({ children }: { children?: ReactNode }) {
  const { user, isPending } = useMe();
  if (isPending) return <PageLoader />;
  if (user) return <RedirectToSaved />;
  return <>{children ?? <Outlet />}</>;
}

/**
 * Spec §2/§6: "pro: a user whose plan is not pro goes to home". Deliberately, enterprise passes too
 * (docs/spec-mapping.md): spec §1 gives every pro feature (teams, wallet, cloud training) to pro
 * *and* enterprise, and the plan matrix (contracts plans.ts PLAN_LIMITS) grants enterprise all of
 * them, so an enterprise user sent home from a pro page would lose what they pay for. guards.test.tsx
 * checks that the guard admits exactly the plans PLAN_LIMITS gives the pro features.
 */
export function ProGuard({ children }: { children?: ReactNode }) {
  const { user, isPending } = useMe();
  if (isPending) return <PageLoader />;
  if (!isPaidPlan(user?.plan)) return <Navigate to="/home" replace />;
  return <>{children ?? <Outlet />}</>;
}

/** Every page but /403 redirects to /403 inside an iframe (spec §2). */
export function IframeGuard({ children, inIframe = isInIframe }: { children?: ReactNode; inIframe?: () => boolean }) {
  const { pathname } = useLocation();
  if (pathname !== '/403' && inIframe()) return <Navigate to="/403" replace />;
  return <>{children ?? <Outlet />}</>;
}

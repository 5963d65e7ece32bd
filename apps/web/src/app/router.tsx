import { Suspense, type ComponentType } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import RouteErrorPage from '../features/system/routes/route-error';
import { AuthGuard, GuestGuard } from './guards';
import { lazyPage } from './lazy-page';
import { AuthenticatedLayout } from './layout-authenticated';
import { LandingLayout } from './layout-landing';
import { AdaptiveLayout } from './layout-public';
import { Root } from './root';
import { ROUTE_PATHS } from './route-names';

/** A lazily loaded page element (its own Suspense keeps the layout on screen). */
function page(loader: () => Promise<{ default: ComponentType<object> }>) {
  const Page = lazyPage(loader);
  return (
    <Suspense fallback={<PageLoader />}>
      <Page />
    </Suspense>
  );
}

const p = (name: keyof typeof ROUTE_PATHS) => ROUTE_PATHS[name].slice(1);

/** Spec §2, the whole route table. Names live in route-names.ts (pathFor). */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        // Landing layout ('guest'): sign-up at '' (alias /signup), sign-in (alias /login), the /auth landing view.
        id: 'guest',
        path: '/',
        element: <LandingLayout />,
        children: [
          {
            element: <GuestGuard />,
            children: [
              { id: 'sign-up', index: true, element: page(() => import('../features/auth/routes/sign-up')) },
              { id: 'sign-up-alias', path: 'signup', element: page(() => import('../features/auth/routes/sign-up')) },
              { id: 'sign-in', path: p('sign-in'), element: page(() => import('../features/auth/routes/sign-in')) },
              { id: 'sign-in-alias', path: 'login', element: page(() => import('../features/auth/routes/sign-in')) },
              { id: 'landing-view', path: p('landing-view'), element: page(() => import('../features/auth/routes/landing-view')) },
            ],
          },
          { id: 'request-password', path: p('request-password'), element: page(() => import('../features/auth/routes/request-password')) },
          { id: 'reset-password', path: p('reset-password'), element: page(() => import('../features/auth/routes/reset-password')) },
        ],
      },
      {
        element: <AuthGuard />,
        children: [
          {
            element: <AuthenticatedLayout />,
            children: [
              { id: 'welcome', path: p('welcome'), element: page(() => import('../features/auth/routes/welcome')) },
              { id: 'home', path: p('home'), element: page(() => import('../features/home/routes/home')) },
              { id: 'settings', path: p('settings'), element: page(() => import('../features/settings/routes/settings')) },
              { id: 'notifications', path: p('notifications'), element: page(() => import('../features/notifications/routes/notifications')) },
              { id: 'projects', path: p('projects'), element: page(() => import('../features/projects/routes/projects-index')) },
              { id: 'team', path: p('team'), element: page(() => import('../features/teams/routes/team-content')) },
              { id: 'datasets-index', path: p('datasets-index'), element: page(() => import('../features/datasets/routes/datasets-index')) },
              // The annotation editor (ADR 0040) edits labels: signed in only.
              { id: 'dataset-annotate', path: p('dataset-annotate'), element: page(() => import('../features/annotate/routes/annotate')) },
              { id: 'roboflow-dataset', path: p('roboflow-dataset'), element: page(() => import('../features/integrations/routes/roboflow-dataset')) },
              { id: 'models', path: p('models'), element: page(() => import('../features/models/routes/models-index')) },
              { id: 'trash', path: p('trash'), element: page(() => import('../features/trash/routes/trash')) },
              { id: 'admin', path: p('admin'), element: page(() => import('../features/admin/routes/admin')) },
              { id: 'active-jobs', path: p('active-jobs'), element: page(() => import('../features/jobs/routes/active-jobs')) },
              // The wallet is for pro and enterprise (spec §1); a Free user reads why there is none (ADR 0030).
              { id: 'wallet', path: p('wallet'), element: page(() => import('../features/billing/routes/wallet')) },
              { id: 'plans', path: p('plans'), element: page(() => import('../features/billing/routes/plans')) },
              { id: 'explore', path: p('explore'), element: page(() => import('../features/explore/routes/explore')) },
            ],
          },
        ],
      },
      {
        // No guard: the shell when signed in, the public layout otherwise.
        element: <AdaptiveLayout />,
        children: [
          { id: 'project-content', path: p('project-content'), element: page(() => import('../features/projects/routes/project-content')) },
          { id: 'dataset-content', path: p('dataset-content'), element: page(() => import('../features/datasets/routes/dataset-content')) },
          { id: 'model-content', path: p('model-content'), element: page(() => import('../features/models/routes/model-content')) },
          { id: 'support', path: p('support'), element: page(() => import('../features/support/routes/support')) },
          { id: 'forbidden', path: p('forbidden'), element: page(() => import('../features/system/routes/forbidden')) },
          { id: 'not-found', path: p('not-found'), element: page(() => import('../features/system/routes/not-found')) },
          { id: 'catch-all', path: '*', element: page(() => import('../features/system/routes/not-found')) },
        ],
      },
      // The component showcase stands alone (no layout chrome).
      { id: 'uikit', path: p('uikit'), element: page(() => import('../features/system/routes/uikit')) },
      { path: 'index.html', element: <Navigate to="/" replace /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);

/** Route names of spec §2 → paths. Navigating by an unknown name is a router error. */
export const ROUTE_PATHS = {
  guest: '/',
  'sign-up': '/signup',
  'sign-in': '/signin',
  'request-password': '/request-password',
  'reset-password': '/reset-password',
  welcome: '/welcome',
  'landing-view': '/auth',
  home: '/home',
  settings: '/settings',
  notifications: '/notifications',
  projects: '/projects',
  'project-content': '/projects/:id',
  team: '/teams/:id',
  'datasets-index': '/datasets',
  'dataset-content': '/datasets/:id',
  'dataset-annotate': '/datasets/:id/annotate',
  'roboflow-dataset': '/integrations/roboflow/datasets/:id',
  models: '/models',
  'model-content': '/models/:id',
  trash: '/trash',
  admin: '/admin',
  'active-jobs': '/active-jobs',
  wallet: '/wallet',
  plans: '/plans',
  explore: '/explore',
  support: '/support',
  forbidden: '/403',
  uikit: '/uikit',
  'not-found': '/404',
} as const;

export type RouteName = keyof typeof ROUTE_PATHS;

export class RouterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouterError';
  }
}

export function isRouteName(name: string): name is RouteName {
  return Object.prototype.hasOwnProperty.call(ROUTE_PATHS, name);
}

/** Path of a named route with its `:params` filled in and an optional query. */
export function pathFor(name: string, params: Record<string, string> = {}, query?: Record<string, string>): string {
  if (!isRouteName(name)) throw new RouterError(`No route named "${name}"`);
  const path = ROUTE_PATHS[name].replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') throw new RouterError(`Route "${name}" needs the parameter "${key}"`);
    return encodeURIComponent(value);
  });
  const qs = query ? new URLSearchParams(query).toString() : '';
  return qs ? `${path}?${qs}` : path;
}

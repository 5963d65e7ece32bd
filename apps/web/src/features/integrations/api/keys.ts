/** Query keys of the integrations feature (one owner per key). */
export const integrationKeys = {
  all: ['integrations'] as const,
  overview: () => [...integrationKeys.all, 'overview'] as const,
  browse: () => [...integrationKeys.all, 'browse'] as const,
  project: (ws: string, project: string) => [...integrationKeys.all, 'project', ws, project] as const,
  previews: (ws: string, project: string) => [...integrationKeys.all, 'previews', ws, project] as const,
  imports: () => [...integrationKeys.all, 'imports'] as const,
};

export const projectPath = (ws: string, project: string) => `/v1/integrations/roboflow/projects/${encodeURIComponent(ws)}/${encodeURIComponent(project)}`;

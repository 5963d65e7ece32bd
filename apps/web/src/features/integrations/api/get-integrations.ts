import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IntegrationsOverview } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

/** Linked workspaces, subscriptions and the roboflow settings (no call to Roboflow). */
export const getIntegrations = (signal?: AbortSignal) => api.get<IntegrationsOverview>('/v1/integrations', signal);
export const integrationsQueryOptions = () => queryOptions({ queryKey: integrationKeys.overview(), queryFn: ({ signal }) => getIntegrations(signal) });
export const useIntegrations = () => useQuery(integrationsQueryOptions());

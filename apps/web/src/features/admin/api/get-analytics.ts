import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AnalyticsSeries, AnalyticsTop } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './admin-keys';

export const getAnalytics = (from: string, to: string, interval: 'day' | 'week', signal?: AbortSignal) =>
  api.get<AnalyticsSeries>(`/v1/admin/analytics/events${queryString({ from, to, interval })}`, signal);
export const getAnalyticsTop = (from: string, to: string, signal?: AbortSignal) =>
  api.get<AnalyticsTop>(`/v1/admin/analytics/top${queryString({ from, to })}`, signal);
export const analyticsCsvUrl = (from: string, to: string, interval: 'day' | 'week') => `/v1/admin/analytics/export${queryString({ from, to, interval })}`;

export const useAnalytics = (from: string, to: string, interval: 'day' | 'week') =>
  useQuery({
    queryKey: adminKeys.analytics(from, to, interval),
    queryFn: ({ signal }) => getAnalytics(from, to, interval, signal),
    placeholderData: keepPreviousData,
  });
export const useAnalyticsTop = (from: string, to: string) =>
  useQuery({ queryKey: adminKeys.top(from, to), queryFn: ({ signal }) => getAnalyticsTop(from, to, signal) });

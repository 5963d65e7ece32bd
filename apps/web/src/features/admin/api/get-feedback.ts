import { useQuery } from '@tanstack/react-query';
import type { AdminFeedback } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export const getFeedback = (signal?: AbortSignal) => api.get<AdminFeedback>('/v1/admin/feedback', signal);
export const useFeedback = () => useQuery({ queryKey: adminKeys.feedback, queryFn: ({ signal }) => getFeedback(signal) });

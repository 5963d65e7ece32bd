import { useQuery } from '@tanstack/react-query';
import type { AuthFailure } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/admin/security/failures: repeated sign-in, mail and API-key failures and current blocks (ADR 0014). */
export const getAuthFailures = (signal?: AbortSignal) => api.get<AuthFailure[]>('/v1/admin/security/failures?limit=50', signal);
export const useAuthFailures = () => useQuery({ queryKey: ['admin', 'auth-failures'], queryFn: ({ signal }) => getAuthFailures(signal) });

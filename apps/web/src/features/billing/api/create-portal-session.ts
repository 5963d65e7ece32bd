import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** createPortalSession (spec §7): the Stripe Customer Portal address. */
export const createPortalSession = () => api.post<{ url: string }>('/v1/billing/portal');

export const useCreatePortalSession = () => useMutation({ mutationFn: createPortalSession });

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** createCheckoutSessionTopUp (modelId, amount) of spec §7; amount in USD ($5–$1,000). */
export const createTopUp = (input: { amount: number; modelId?: string }) => api.post<{ url: string }>('/v1/billing/checkout/top-up', input);

export const useCreateTopUp = () => useMutation({ mutationFn: createTopUp });

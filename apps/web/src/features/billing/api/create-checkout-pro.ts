import { useMutation } from '@tanstack/react-query';
import type { BillingInterval } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** createCheckoutSessionProPlan (spec §7): the Stripe Checkout address for pro. */
export const createCheckoutPro = (interval: BillingInterval) => api.post<{ url: string }>('/v1/billing/checkout/pro', { interval });

export const useCreateCheckoutPro = () => useMutation({ mutationFn: createCheckoutPro });

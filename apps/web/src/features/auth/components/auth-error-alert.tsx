import { Alert } from '@mantine/core';
import { IconAlertCircle, IconWifiOff } from '@tabler/icons-react';
import { ErrorCode, Messages } from '@sightline/contracts';
import type { ReactNode } from 'react';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';

/**
 * Maps an auth error to its message: the network alert of spec §8, the account-deleted alert of §4, or the code's text.
 * `title` heads the alert with what failed (sign-up: the spec's 'Unable to Create User'), the message saying why.
 */
export function AuthErrorAlert({ error, title, children }: { error: unknown; title?: string; children?: ReactNode }) {
  if (!error) return null;
  if (isApiError(error) && error.isNetworkError) {
    return (
      <Alert color="orange" icon={<IconWifiOff size={18} />} role="alert" data-testid="network-error" title={title}>
        {Messages.networkError}
      </Alert>
    );
  }
  const code = isApiError(error) ? error.code : typeof error === 'string' ? error : undefined;
  const fallback = isApiError(error) ? error.message : undefined;
  // A throttled sign-in or mail request (429): the server's sentence says how long to wait.
  const message =
    code === ErrorCode.AccountDeleted ? Messages.accountDeleted : code === ErrorCode.RateLimited && fallback ? fallback : errorMessage(code, fallback);
  return (
    <Alert
      color={code === ErrorCode.RateLimited ? 'orange' : 'red'}
      icon={<IconAlertCircle size={18} />}
      role="alert"
      data-testid="auth-error"
      data-code={code}
      title={title}
    >
      {message}
      {children}
    </Alert>
  );
}

import { isApiError } from './api-client';
import { errorMessage } from './i18n';
import { notifications } from './notifications';

/** A failed call as an error notification: the message for the server's error code, else the error as text. */
export const notifyError = (err: unknown) => notifications.error(isApiError(err) ? errorMessage(err.code, err.message) : String(err));

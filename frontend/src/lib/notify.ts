import { notifications } from '@mantine/notifications';
import { ApiError, HttpError, UnauthorizedError } from './http';
import { i18n } from './i18n';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: 3000 });
}

export function notifyInfo(message: string): void {
  notifications.show({ color: 'blue', message, autoClose: 4000 });
}

/** `id`: a notice shown at most once while it is on screen. */
export function notifyError(message: string, id?: string): void {
  notifications.show({ color: 'red', message, autoClose: 5000, ...(id ? { id } : {}) });
}

/** A failure worded for the user (the title), with the raw detail below it when there is one. */
export function notifyErrorDetail(message: string, detail: string): void {
  if (!detail) return notifyError(message);
  notifications.show({ color: 'red', title: message, message: detail, autoClose: 8000 });
}

/** How each failed request reaches the user. */
export function notifyRequestError(error: unknown): void {
  // 401 already redirected to /login?expired=true, which shows its own message.
  if (error instanceof UnauthorizedError) return;
  if (error instanceof ApiError) return notifyError(error.message);
  if (error instanceof HttpError) {
    switch (error.status) {
      case 429:
        return notifyError(i18n.t('errors.tooManyRequests'));
      case 500:
        return notifyError(i18n.t('errors.serverError'));
      case 405:
        return notifyInfo(i18n.t('errors.demoSite'));
      default:
        return notifyError(i18n.t('errors.withMessage', { message: error.message }));
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  notifyError(i18n.t('errors.withMessage', { message }));
}

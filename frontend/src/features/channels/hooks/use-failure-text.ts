import { useTranslation } from 'react-i18next';
import { failureReasonKey } from '../utils/failure-reason';

/** A failure as the console shows it: the translated reason, the raw text as its detail. */
export interface FailureText {
  readonly reason: string;
  /** The upstream's own words ('' when the reason already is them). */
  readonly detail: string;
}

/** Words a channel failure: `message` as the upstream said it, `status` its HTTP status (0: none). */
export function useFailureText(): (message: string, status?: number) => FailureText {
  const { t } = useTranslation();
  return (message, status = 0) => {
    const key = failureReasonKey(message, status);
    if (!key) return { reason: message, detail: '' };
    return {
      reason: t(`channels.failure.${key}`, { status }),
      detail: message ? t('channels.failure.detail', { detail: message }) : '',
    };
  };
}

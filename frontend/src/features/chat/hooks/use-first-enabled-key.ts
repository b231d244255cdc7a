import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { UnauthorizedError } from '@/lib/http';
import { notifyError } from '@/lib/notify';
import { chatQueries } from '../api/chat.api';

/** How long the "no enabled token" message stays before the token page opens. */
export const NO_TOKEN_REDIRECT_MS = 1500;

/**
 * The key (without `sk-`) of the user's first enabled token, or undefined while it loads. With no
 * enabled token (or no readable token list, as new-api treats it) the user is told so and sent to
 * /token after 1.5 s. A lost session already went to the login page.
 */
export function useFirstEnabledKey(enabled: boolean): string | undefined {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, error } = useQuery({ ...chatQueries.enabledKeys(), enabled });
  const none =
    (data !== undefined && data.length === 0) ||
    (error !== null && !(error instanceof UnauthorizedError));

  useEffect(() => {
    if (!none) return;
    notifyError(t('chat.noEnabledToken'), 'chat-no-enabled-token');
    const timer = window.setTimeout(() => void navigate('/token'), NO_TOKEN_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [none, navigate, t]);

  return data?.[0];
}

import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ApiEnvelope, LoginResultDto } from '@tollgate/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { notifyRequestError, notifySuccess } from '@/lib/notify';
import { authApi } from '../api/auth.api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

type CallbackProvider = 'github' | 'oidc' | 'linuxdo';

const CALLBACKS: Record<
  CallbackProvider,
  (code: string, state: string) => Promise<ApiEnvelope<LoginResultDto>>
> = {
  github: authApi.githubCallback,
  oidc: authApi.oidcCallback,
  linuxdo: authApi.linuxdoCallback,
};

/**
 * The provider's way back: sign in (→ /token), or bind when the server answers 'bind'
 * (→ /setting); a failure shows its message and goes to /setting.
 */
export function OAuthCallbackPage({ provider }: { provider: CallbackProvider }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const completeSignIn = useCompleteSignIn();
  // The code is single-use: StrictMode's second effect run must not send it again.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    CALLBACKS[provider](params.get('code') ?? '', params.get('state') ?? '').then(
      (reply) => {
        if (reply.message === 'bind') {
          notifySuccess(t('auth.bindSuccess'));
          void navigate('/setting');
        } else if (reply.data) {
          completeSignIn(reply.data, '/token');
        } else {
          void navigate('/setting');
        }
      },
      (error: unknown) => {
        notifyRequestError(error);
        void navigate('/setting');
      },
    );
  }, [provider, params, navigate, completeSignIn, t]);

  return (
    <Center py="xl">
      <Stack align="center">
        <Loader />
        <Text>{t('auth.processing')}</Text>
      </Stack>
    </Center>
  );
}

/** /oauth/github */
export function GithubCallbackPage() {
  return <OAuthCallbackPage provider="github" />;
}

/** /oauth/oidc (OpenID Connect) */
export function OidcCallbackPage() {
  return <OAuthCallbackPage provider="oidc" />;
}

/** /oauth/linuxdo (Linux DO Connect) */
export function LinuxDoCallbackPage() {
  return <OAuthCallbackPage provider="linuxdo" />;
}

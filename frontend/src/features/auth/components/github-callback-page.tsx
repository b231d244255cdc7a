import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { notifyRequestError, notifySuccess } from '@/lib/notify';
import { authApi } from '../api/auth.api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

/** /oauth/github: sign in (→ /token), or bind when the server answers 'bind' (→ /setting). */
export function GithubCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const completeSignIn = useCompleteSignIn();
  // The code is single-use: StrictMode's second effect run must not send it again.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    authApi.githubCallback(params.get('code') ?? '', params.get('state') ?? '').then(
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
  }, [params, navigate, completeSignIn, t]);

  return (
    <Center py="xl">
      <Stack align="center">
        <Loader />
        <Text>{t('auth.processing')}</Text>
      </Stack>
    </Center>
  );
}

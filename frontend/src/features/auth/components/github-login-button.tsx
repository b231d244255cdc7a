import { Button } from '@mantine/core';
import { IconBrandGithub } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth.api';

/** Sends the browser to GitHub; it comes back on /oauth/github with code and state. */
export function GithubLoginButton({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: authApi.oauthState,
    onSuccess: (state) => {
      const params = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' });
      window.location.assign(`https://github.com/login/oauth/authorize?${params.toString()}`);
    },
  });

  return (
    <Button
      variant="default"
      leftSection={<IconBrandGithub size={18} />}
      loading={start.isPending}
      onClick={() => start.mutate()}
    >
      {t('auth.loginWithGithub')}
    </Button>
  );
}

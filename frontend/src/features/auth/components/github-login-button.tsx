import { Button } from '@mantine/core';
import { IconBrandGithub } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { authApi } from '../api/auth.api';

/**
 * Sends the browser to GitHub with a fresh state; it comes back on /oauth/github with code and
 * state. Signed in, the same round trip binds the account (`bind`).
 */
export function GithubLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation();
  const status = useStatus();
  const start = useMutation({
    mutationFn: authApi.oauthState,
    onSuccess: (state) => {
      const params = new URLSearchParams({
        client_id: status.github_client_id,
        state,
        scope: 'user:email',
      });
      window.location.assign(`${status.github_authorize_url}?${params.toString()}`);
    },
  });

  return (
    <Button
      variant="default"
      leftSection={<IconBrandGithub size={18} />}
      loading={start.isPending}
      onClick={() => start.mutate()}
    >
      {label ?? t('auth.loginWithGithub')}
    </Button>
  );
}

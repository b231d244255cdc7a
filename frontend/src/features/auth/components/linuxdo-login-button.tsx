import { Button } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { authApi } from '../api/auth.api';

/**
 * Linux DO Connect (new-api's button): a state from the server, then the browser goes to Linux DO,
 * which sends it back to /oauth/linuxdo (the redirect URI registered with the application).
 */
export function LinuxDoLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation();
  const status = useStatus();
  const start = useMutation({
    mutationFn: authApi.oauthState,
    onSuccess: (state) => {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: status.linuxdo_client_id,
        state,
      });
      window.location.assign(`${status.linuxdo_authorize_url}?${params.toString()}`);
    },
  });

  return (
    <Button
      variant="default"
      leftSection={<IconUsersGroup size={18} />}
      loading={start.isPending}
      onClick={() => start.mutate()}
    >
      {label ?? t('oauth.loginWith', { name: t('oauth.linuxdoName') })}
    </Button>
  );
}

import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { authApi } from '../api/auth.api';

/**
 * OpenID Connect as new-api's console does it: a state from the server, then the browser goes to
 * the provider's authorization endpoint (from /api/status) and comes back on /oauth/oidc. Signed
 * in, the same round trip binds the account (`bind`).
 */
export function OidcLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation();
  const status = useStatus();
  const start = useMutation({
    mutationFn: authApi.oauthState,
    onSuccess: (state) => {
      const params = new URLSearchParams({
        client_id: status.oidc_client_id,
        redirect_uri: `${window.location.origin}/oauth/oidc`,
        response_type: 'code',
        scope: 'openid profile email',
        state,
      });
      window.location.assign(`${status.oidc_authorization_endpoint}?${params.toString()}`);
    },
  });

  return (
    <Button
      variant="default"
      leftSection={<IconKey size={18} />}
      loading={start.isPending}
      onClick={() => start.mutate()}
    >
      {label ?? t('oauth.loginWith', { name: t('oauth.oidcName') })}
    </Button>
  );
}

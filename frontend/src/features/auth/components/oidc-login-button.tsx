import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth.api';

/**
 * OpenID Connect started by the server: it answers the provider's authorization URL with a state,
 * a nonce and a PKCE challenge it keeps for the callback; the browser comes back on /oauth/oidc.
 * Signed in, the same round trip binds the account (`bind`).
 */
export function OidcLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation();
  const start = useMutation({
    mutationFn: authApi.oidcAuthorize,
    onSuccess: (url) => window.location.assign(url),
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

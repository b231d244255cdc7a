import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { authApi } from '../api/auth.api';

/** The OpenID Connect provider's button: the server builds the authorization URL (state, nonce). */
export function OidcLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation();
  const status = useStatus();
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
      {label ??
        t('oauth.loginWith', { name: status.oidc_display_name || t('oauth.oidcDefaultName') })}
    </Button>
  );
}

import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCopy } from '@/hooks/use-copy';
import { authApi } from '../api/auth.api';
import { AuthCard } from './auth-card';

/**
 * The link in the reset mail lands here (token and email in the query): confirming spends the link
 * and shows the new password, copied at once and again with the copy button.
 */
export function PasswordResetConfirmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const copy = useCopy();
  const confirm = useMutation({
    mutationFn: authApi.confirmReset,
    onSuccess: (password) => void copy(password, t('auth.newPasswordCopied')),
  });

  return (
    <AuthCard title={t('auth.resetConfirmTitle')}>
      <Stack>
        <TextInput label={t('auth.email')} value={email} readOnly />
        {confirm.data !== undefined && (
          <>
            <TextInput
              label={t('auth.newPassword')}
              value={confirm.data}
              readOnly
              rightSectionWidth={96}
              rightSection={
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void copy(confirm.data, t('auth.newPasswordCopied'))}
                >
                  {t('common.copy')}
                </Button>
              }
            />
            <Text size="sm" c="dimmed">
              {t('auth.newPasswordHint')}
            </Text>
          </>
        )}
        <Button
          fullWidth
          loading={confirm.isPending}
          disabled={!email || !token || confirm.isSuccess}
          onClick={() => confirm.mutate({ email, token })}
        >
          {t('auth.confirmReset')}
        </Button>
      </Stack>
    </AuthCard>
  );
}

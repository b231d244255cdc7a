import { Button, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { useSendResetEmail } from '../hooks/use-send-reset-email';
import { useTurnstile } from '../hooks/use-turnstile';
import { AuthCard } from './auth-card';
import { TurnstileWidget } from './turnstile-widget';

export function PasswordResetPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const turnstile = useTurnstile();
  const { send, remaining } = useSendResetEmail();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return notifyError(t('auth.enterEmail'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    send.mutate({ email: email.trim(), turnstile: turnstile.token });
  };

  return (
    <AuthCard title={t('auth.resetTitle')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          {turnstile.enabled && (
            <TurnstileWidget siteKey={turnstile.siteKey} onVerify={turnstile.setToken} />
          )}
          <Button type="submit" loading={send.isPending} disabled={remaining > 0} fullWidth>
            {remaining > 0 ? t('auth.retryIn', { seconds: remaining }) : t('auth.sendResetMail')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifyError } from '@/lib/notify';
import { useLogin } from '../hooks/use-login';
import { useTurnstile } from '../hooks/use-turnstile';
import { TurnstileWidget } from './turnstile-widget';

export function LoginForm() {
  const { t } = useTranslation();
  const login = useLogin();
  const turnstile = useTurnstile();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) return notifyError(t('auth.enterUsernameAndPassword'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    login.mutate({ username: username.trim(), password, turnstile: turnstile.token });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('auth.username')}
          placeholder={t('auth.usernameOrEmailPlaceholder')}
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
        />
        <PasswordInput
          label={t('auth.password')}
          placeholder={t('auth.passwordPlaceholder')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        {turnstile.enabled && (
          <TurnstileWidget siteKey={turnstile.siteKey} onVerify={turnstile.setToken} />
        )}
        <Button type="submit" loading={login.isPending} fullWidth>
          {t('auth.login')}
        </Button>
        <Group justify="space-between">
          <Text size="sm">
            {t('auth.forgotPassword')}{' '}
            <Anchor component={Link} to="/reset">
              {t('auth.clickToReset')}
            </Anchor>
          </Text>
          <Text size="sm">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to="/register">
              {t('auth.clickToRegister')}
            </Anchor>
          </Text>
        </Group>
      </Stack>
    </form>
  );
}

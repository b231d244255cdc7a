import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStatus } from '@/features/status';
import { useRegisterForm } from '../hooks/use-register-form';
import { TurnstileWidget } from './turnstile-widget';

export function RegisterForm() {
  const { t } = useTranslation();
  const { email_verification } = useStatus();
  const { field, sendCode, submit, register, verification, turnstile } = useRegisterForm();
  const { send, remaining } = verification;

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput label={t('auth.username')} autoComplete="username" {...field('username')} />
        <PasswordInput
          label={t('auth.password')}
          placeholder={t('auth.newPasswordPlaceholder')}
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          {...field('password2')}
        />
        {email_verification && (
          <>
            <TextInput
              label={t('auth.email')}
              type="email"
              autoComplete="email"
              {...field('email')}
              rightSectionWidth={120}
              rightSection={
                <Button
                  size="compact-sm"
                  variant="light"
                  disabled={remaining > 0}
                  loading={send.isPending}
                  onClick={sendCode}
                >
                  {remaining > 0 ? t('auth.resendIn', { seconds: remaining }) : t('auth.getCode')}
                </Button>
              }
            />
            <TextInput label={t('auth.verificationCode')} {...field('verification_code')} />
          </>
        )}
        {turnstile.enabled && (
          <TurnstileWidget siteKey={turnstile.siteKey} onVerify={turnstile.setToken} />
        )}
        <Button type="submit" loading={register.isPending} fullWidth>
          {t('auth.register')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('auth.clickToLogin')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

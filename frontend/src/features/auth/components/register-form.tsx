import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { readString, StorageKey, writeString } from '@/lib/storage';
import { useRegister } from '../hooks/use-register';
import { useSendVerificationCode } from '../hooks/use-send-verification-code';
import { useTurnstile } from '../hooks/use-turnstile';
import { TurnstileWidget } from './turnstile-widget';

const MIN_PASSWORD_LENGTH = 8;

export function RegisterForm() {
  const { t } = useTranslation();
  const { email_verification } = useStatus();
  const [params] = useSearchParams();
  const register = useRegister();
  const { send, remaining } = useSendVerificationCode();
  const turnstile = useTurnstile();
  const [values, setValues] = useState({
    username: '',
    password: '',
    password2: '',
    email: '',
    verification_code: '',
  });
  const field = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  // An invitation link (?aff=) is remembered until the visitor registers.
  const aff = params.get('aff');
  useEffect(() => {
    if (aff) writeString(StorageKey.affCode, aff);
  }, [aff]);

  const sendCode = () => {
    if (!values.email.trim()) return notifyError(t('auth.enterEmail'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    send.mutate({ email: values.email.trim(), turnstile: turnstile.token });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values.username.trim() || !values.password) {
      return notifyError(t('auth.enterUsernameAndPassword'));
    }
    if (values.password.length < MIN_PASSWORD_LENGTH)
      return notifyError(t('auth.passwordTooShort'));
    if (values.password !== values.password2) return notifyError(t('auth.passwordsDiffer'));
    if (!turnstile.passed) return notifyError(t('auth.turnstileChecking'));
    register.mutate({
      ...values,
      username: values.username.trim(),
      aff_code: readString(StorageKey.affCode) ?? '',
      turnstile: turnstile.token,
    });
  };

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

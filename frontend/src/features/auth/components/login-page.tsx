import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SetupOffer } from '@/features/setup';
import { useStatus } from '@/features/status';
import { AuthCard } from './auth-card';
import { LoginForm } from './login-form';
import { ThirdPartyLogins } from './third-party-logins';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { password_login_enabled } = useStatus();

  return (
    <AuthCard title={t('auth.loginTitle')}>
      {params.get('expired') === 'true' && (
        <Alert color="red" role="alert">
          {t('auth.sessionExpired')}
        </Alert>
      )}
      <SetupOffer />
      {password_login_enabled && <LoginForm />}
      <ThirdPartyLogins />
    </AuthCard>
  );
}

import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { AuthCard } from './auth-card';
import { RegisterForm } from './register-form';

export function RegisterPage() {
  const { t } = useTranslation();
  const { register_enabled, password_register_enabled } = useStatus();

  return (
    <AuthCard title={t('auth.registerTitle')}>
      {register_enabled && password_register_enabled ? (
        <RegisterForm />
      ) : (
        <Alert color="yellow">{t('auth.registerClosed')}</Alert>
      )}
    </AuthCard>
  );
}

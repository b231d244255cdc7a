import {
  Alert,
  Button,
  Card,
  Container,
  Loader,
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { statusQueries } from '@/features/status';
import { notifyError, notifySuccess } from '@/lib/notify';
import { setupApi, setupQueries } from '../api/setup.api';

const MIN_PASSWORD_LENGTH = 8;
type UsageMode = 'external' | 'self' | 'demo';

/**
 * /setup: new-api's first-run wizard. Offered while root still has its default password; sets the
 * administrator's username and password and the usage mode, then sends to the login page.
 */
export function SetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setup = useQuery(setupQueries.status());
  const [username, setUsername] = useState('root');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mode, setMode] = useState<UsageMode>('external');
  const complete = useMutation({
    mutationFn: setupApi.complete,
    onSuccess: async () => {
      notifySuccess(t('setup.done'));
      await queryClient.invalidateQueries({ queryKey: statusQueries.all });
      await queryClient.invalidateQueries({ queryKey: setupQueries.all });
      void navigate('/login');
    },
  });

  if (setup.isPending) return <Loader m="xl" />;
  if (setup.data?.status) return <Navigate to="/login" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim()) return notifyError(t('setup.enterUsername'));
    if (password.length < MIN_PASSWORD_LENGTH) return notifyError(t('setup.passwordTooShort'));
    if (password !== confirm) return notifyError(t('setup.passwordsDiffer'));
    complete.mutate({
      username: username.trim(),
      password,
      confirmPassword: confirm,
      SelfUseModeEnabled: mode === 'self',
      DemoSiteEnabled: mode === 'demo',
    });
  };

  return (
    <Container size="sm" py="xl">
      <Card withBorder radius="md" p="lg">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={2}>{t('setup.title')}</Title>
            {setup.data?.database_type === 'sqlite' && (
              <Alert color="yellow">{t('setup.sqliteWarning')}</Alert>
            )}
            <Title order={4}>{t('setup.adminSection')}</Title>
            <TextInput
              label={t('setup.username')}
              placeholder={t('setup.usernamePlaceholder')}
              autoComplete="username"
              value={username}
              onChange={(event) => setUsername(event.currentTarget.value)}
            />
            <PasswordInput
              label={t('setup.password')}
              placeholder={t('setup.passwordPlaceholder')}
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordInput
              label={t('setup.confirmPassword')}
              placeholder={t('setup.confirmPlaceholder')}
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => setConfirm(event.currentTarget.value)}
            />
            <Radio.Group
              label={t('setup.usageMode')}
              description={t('setup.usageModeHint')}
              value={mode}
              onChange={(value) => setMode(value)}
            >
              <Stack gap="xs" mt="xs">
                {(['external', 'self', 'demo'] as const).map((value) => (
                  <Radio
                    key={value}
                    value={value}
                    label={t(`setup.${value}`)}
                    description={
                      <Text span size="xs">
                        {t(`setup.${value}Hint`)}
                      </Text>
                    }
                  />
                ))}
              </Stack>
            </Radio.Group>
            <Button type="submit" loading={complete.isPending}>
              {t('setup.submit')}
            </Button>
          </Stack>
        </form>
      </Card>
    </Container>
  );
}

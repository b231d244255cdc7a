import { Button, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { statusQueries } from '@/features/status';
import { notifyError, notifySuccess } from '@/lib/notify';
import { setupApi, setupQueries } from '../api/setup.api';

const MIN_PASSWORD_LENGTH = 8;
const USAGE_MODES = ['external', 'self', 'demo'] as const;
type UsageMode = (typeof USAGE_MODES)[number];

/** Completes the setup; the status and setup state are read again, then the login page opens. */
function useCompleteSetup() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setupApi.complete,
    onSuccess: async () => {
      notifySuccess(t('setup.done'));
      await queryClient.invalidateQueries({ queryKey: statusQueries.all });
      await queryClient.invalidateQueries({ queryKey: setupQueries.all });
      void navigate('/login');
    },
  });
}

/** The wizard's form: the administrator's name and password, and the usage mode. */
export function SetupForm({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('root');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mode, setMode] = useState<UsageMode>('external');
  const complete = useCompleteSetup();

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
    <form onSubmit={submit} noValidate>
      <Stack>
        {children}
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
        <UsageModeField value={mode} onChange={setMode} />
        <Button type="submit" loading={complete.isPending}>
          {t('setup.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** External service, self use (no pricing) or demo site. */
function UsageModeField({
  value,
  onChange,
}: {
  value: UsageMode;
  onChange: (mode: UsageMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={t('setup.usageMode')}
      description={t('setup.usageModeHint')}
      value={value}
      onChange={onChange}
    >
      <Stack gap="xs" mt="xs">
        {USAGE_MODES.map((mode) => (
          <Radio
            key={mode}
            value={mode}
            label={t(`setup.${mode}`)}
            description={
              <Text span size="xs">
                {t(`setup.${mode}Hint`)}
              </Text>
            }
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

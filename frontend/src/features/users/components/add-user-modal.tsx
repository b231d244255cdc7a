import { Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { useCreateUser } from '../hooks/use-user-mutations';

/** Username and password are required; the display name is optional. */
export function AddUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const [values, setValues] = useState({ username: '', display_name: '', password: '' });
  const bind = (name: keyof typeof values) => ({
    value: values[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!values.username.trim() || !values.password) {
      return notifyError(t('auth.enterUsernameAndPassword'));
    }
    create.mutate(
      {
        username: values.username.trim(),
        display_name: values.display_name.trim() || undefined,
        password: values.password,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.addTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('auth.username')} name="username" {...bind('username')} />
          <TextInput
            label={t('users.displayName')}
            placeholder={t('common.optional')}
            name="display_name"
            {...bind('display_name')}
          />
          <PasswordInput
            label={t('auth.password')}
            placeholder={t('auth.newPasswordPlaceholder')}
            name="password"
            autoComplete="new-password"
            {...bind('password')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('common.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

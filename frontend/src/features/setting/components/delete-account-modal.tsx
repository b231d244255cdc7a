import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { useDeleteAccount } from '../hooks/use-delete-account';

interface DeleteAccountModalProps {
  opened: boolean;
  onClose: () => void;
  username: string;
}

/** Deleting the own account is irreversible, so the user types the account name first. */
export function DeleteAccountModal({ opened, onClose, username }: DeleteAccountModalProps) {
  const { t } = useTranslation();
  const remove = useDeleteAccount();
  const [typed, setTyped] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed !== username) return notifyError(t('setting.typeNameToDelete'));
    remove.mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('setting.deleteAccount')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Alert color="red">{t('setting.deleteAccountWarning')}</Alert>
          <TextInput
            label={t('setting.deleteAccountConfirmLabel', { username })}
            placeholder={username}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" loading={remove.isPending}>
              {t('setting.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import { useChangePassword } from '../hooks/use-change-password';

const MIN_PASSWORD_LENGTH = 8;

/** Current, new and repeated password; the server checks the current one. */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!current) return notifyError(t('setting.enterCurrentPassword'));
    if (next.length < MIN_PASSWORD_LENGTH) return notifyError(t('auth.passwordTooShort'));
    if (next !== repeat) return notifyError(t('setting.passwordsDiffer'));
    change.mutate({ current, next }, { onSuccess: onClose });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('setting.changePassword')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordInput
            label={t('setting.currentPassword')}
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('auth.newPassword')}
            placeholder={t('auth.newPasswordPlaceholder')}
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('auth.confirmPassword')}
            autoComplete="new-password"
            value={repeat}
            onChange={(event) => setRepeat(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={change.isPending}>
              {t('common.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

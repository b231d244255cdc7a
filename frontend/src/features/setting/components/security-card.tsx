import { Button, Card, Group, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ChangePasswordModal } from './change-password-modal';
import { DeleteAccountModal } from './delete-account-modal';

/** `/setting?tab=personal&dialog=password` opens the password dialog (the default-password prompt). */
const PASSWORD_DIALOG_PARAM = { name: 'dialog', value: 'password' } as const;

export function SecurityCard({ username }: { username: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [passwordOpened, password] = useDisclosure(false);
  const [deleteOpened, remove] = useDisclosure(false);
  const openPassword = password.open;
  const wantsPassword = params.get(PASSWORD_DIALOG_PARAM.name) === PASSWORD_DIALOG_PARAM.value;

  useEffect(() => {
    if (!wantsPassword) return;
    openPassword();
    // Once opened, the address forgets it: a reload or going back does not reopen it.
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(PASSWORD_DIALOG_PARAM.name);
        return next;
      },
      { replace: true },
    );
  }, [wantsPassword, openPassword, setParams]);

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.securityTitle')}
      </Title>
      <Group>
        <Button variant="light" onClick={password.open}>
          {t('setting.changePassword')}
        </Button>
        <Button variant="light" color="red" onClick={remove.open} disabled={!username}>
          {t('setting.deleteAccount')}
        </Button>
      </Group>
      {passwordOpened && <ChangePasswordModal opened onClose={password.close} />}
      {deleteOpened && <DeleteAccountModal opened onClose={remove.close} username={username} />}
    </Card>
  );
}

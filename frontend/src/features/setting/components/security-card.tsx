import { Button, Card, Group, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { ChangePasswordModal } from './change-password-modal';
import { DeleteAccountModal } from './delete-account-modal';

export function SecurityCard({ username }: { username: string }) {
  const { t } = useTranslation();
  const [passwordOpened, password] = useDisclosure(false);
  const [deleteOpened, remove] = useDisclosure(false);

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

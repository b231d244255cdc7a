import {
  ActionIcon,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { UserDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter, useStatus } from '@/features/status';
import { useCopy } from '@/hooks/use-copy';
import { selfQueries } from '../api/self.api';
import { TransferModal } from './transfer-modal';

/** Invitation link and earnings; pending earnings can be moved to the balance. */
export function InvitationCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const { server_address } = useStatus();
  const formatQuota = useQuotaFormatter();
  const copy = useCopy();
  const affCode = useQuery(selfQueries.affCode());
  const [transferOpened, transfer] = useDisclosure(false);

  const origin = server_address || window.location.origin;
  const link = affCode.data ? `${origin}/register?aff=${affCode.data}` : '';

  return (
    <Card withBorder radius="md" data-testid="invitation-card">
      <Title order={4} mb="md">
        {t('setting.invitationTitle')}
      </Title>
      <Stack>
        <TextInput
          label={t('setting.invitationLink')}
          value={link}
          readOnly
          rightSection={
            <ActionIcon
              variant="subtle"
              disabled={!link}
              aria-label={t('common.copy')}
              onClick={() => void copy(link)}
            >
              <IconCopy size={16} />
            </ActionIcon>
          }
        />
        <SimpleGrid cols={3}>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('setting.pendingEarnings')}
            </Text>
            <Text fw={700}>{formatQuota(user?.aff_quota ?? 0)}</Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('setting.totalEarnings')}
            </Text>
            <Text fw={700}>{formatQuota(user?.aff_history_quota ?? 0)}</Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('setting.inviteeCount')}
            </Text>
            <Text fw={700}>{user?.aff_count ?? 0}</Text>
          </Stack>
        </SimpleGrid>
        <Group>
          <Button variant="light" onClick={transfer.open} disabled={!user}>
            {t('setting.transferToBalance')}
          </Button>
        </Group>
      </Stack>
      {transferOpened && (
        <TransferModal opened onClose={transfer.close} available={user?.aff_quota ?? 0} />
      )}
    </Card>
  );
}

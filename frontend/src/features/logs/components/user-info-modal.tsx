import { Modal, Skeleton, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QuotaBalance, useQuotaFormatter } from '@/features/status';
import { userQueries } from '@/features/users';

/** Admins click a username to see the user's balance and usage. */
export function UserInfoModal({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const user = useQuery({ ...userQueries.detail(userId ?? 0), enabled: userId !== null });
  const rows: Array<[string, ReactNode]> = [
    [t('logs.username'), user.data?.username],
    [t('logs.quota'), user.data && <QuotaBalance quota={user.data.quota} />],
    [t('logs.usedQuota'), user.data && formatQuota(user.data.used_quota)],
    [t('logs.requestCount'), user.data && String(user.data.request_count)],
  ];
  return (
    <Modal opened={userId !== null} onClose={onClose} title={t('logs.userInfo')} centered>
      <Table withRowBorders={false}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={120}>{label}</Table.Th>
              <Table.Td>{value ?? <Skeleton h={16} w={120} />}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}

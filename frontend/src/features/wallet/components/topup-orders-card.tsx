import { Button, Card, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { TOPUP_STATUSES, TopUpStatus, type TopUpOrderDto } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '@/components/status-badge';
import { TablePager } from '@/components/table-pager';
import { formatDateTime } from '@/utils/date-time';
import { topUpQueries } from '../api/wallet.api';
import { useCompleteOrder } from '../hooks/use-complete-order';

const STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  success: 'green',
  expired: 'gray',
  failed: 'red',
};

const KNOWN_METHODS = ['alipay', 'wxpay', 'stripe'] as const;
const known = (value: string): value is (typeof KNOWN_METHODS)[number] =>
  (KNOWN_METHODS as readonly string[]).includes(value);

/**
 * The top-up orders: a user's own; for an admin every user's, filtered by user and status, with
 * the manual completion of a pending order paid outside.
 */
export function TopUpOrdersCard({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [userId, setUserId] = useState('');
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState('');
  const [settled] = useDebouncedValue({ userId: userId.trim(), keyword: keyword.trim() }, 300);
  const orders = useQuery(
    topUpQueries.orders(
      { page, pageSize, userId: settled.userId, keyword: settled.keyword, status },
      admin,
    ),
  );
  const complete = useCompleteOrder();

  const confirmComplete = (order: TopUpOrderDto) =>
    modals.openConfirmModal({
      title: t('wallet.orders.confirmTitle'),
      children: (
        <Text size="sm">{t('wallet.orders.confirmText', { tradeNo: order.trade_no })}</Text>
      ),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () => complete.mutate(order.trade_no),
    });

  const rows = orders.data?.items ?? [];
  const total = orders.data?.total ?? 0;
  const method = (value: string) => (known(value) ? t(`wallet.methods.${value}`) : value || '—');

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {admin ? t('wallet.orders.allTitle') : t('wallet.orders.title')}
      </Title>
      <Stack>
        {admin && (
          <Group align="flex-end">
            <TextInput
              label={t('wallet.orders.userId')}
              placeholder={t('wallet.orders.userIdPlaceholder')}
              inputMode="numeric"
              value={userId}
              onChange={(event) => {
                setUserId(event.currentTarget.value);
                setPage(1);
              }}
            />
            <TextInput
              label={t('wallet.orders.keyword')}
              placeholder={t('wallet.orders.keywordPlaceholder')}
              value={keyword}
              onChange={(event) => {
                setKeyword(event.currentTarget.value);
                setPage(1);
              }}
            />
            <Select
              label={t('wallet.orders.status')}
              data={[
                { value: '', label: t('wallet.orders.anyStatus') },
                ...TOPUP_STATUSES.map((value) => ({
                  value,
                  label: t(`wallet.orders.statuses.${value}`),
                })),
              ]}
              value={status}
              allowDeselect={false}
              onChange={(value) => {
                setStatus(value ?? '');
                setPage(1);
              }}
            />
          </Group>
        )}
        <Table.ScrollContainer minWidth={admin ? 860 : 640}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="topup-orders">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wallet.orders.tradeNo')}</Table.Th>
                {admin && <Table.Th>{t('wallet.orders.user')}</Table.Th>}
                <Table.Th>{t('wallet.orders.method')}</Table.Th>
                <Table.Th>{t('wallet.orders.amount')}</Table.Th>
                <Table.Th>{t('wallet.orders.money')}</Table.Th>
                <Table.Th>{t('wallet.orders.status')}</Table.Th>
                <Table.Th>{t('wallet.orders.created')}</Table.Th>
                {admin && <Table.Th>{t('wallet.orders.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((order) => (
                <Table.Tr key={order.trade_no} data-testid={`topup-order-${order.trade_no}`}>
                  <Table.Td>{order.trade_no}</Table.Td>
                  {admin && <Table.Td>{order.user_id}</Table.Td>}
                  <Table.Td>{method(order.payment_method)}</Table.Td>
                  <Table.Td>{order.amount}</Table.Td>
                  <Table.Td>{order.money.toFixed(2)}</Table.Td>
                  <Table.Td>
                    <StatusBadge color={STATUS_COLORS[order.status] ?? 'gray'}>
                      {TOPUP_STATUSES.includes(order.status)
                        ? t(`wallet.orders.statuses.${order.status}`)
                        : order.status}
                    </StatusBadge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(order.create_time)}</Table.Td>
                  {admin && (
                    <Table.Td>
                      {order.status === TopUpStatus.Pending && (
                        <Button size="xs" variant="light" onClick={() => confirmComplete(order)}>
                          {t('wallet.orders.complete')}
                        </Button>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
              {!orders.isPending && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={admin ? 8 : 6}>
                    <Text c="dimmed" ta="center" py="md">
                      {t('wallet.orders.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <TablePager
          total={total}
          page={page}
          pageCount={Math.max(1, Math.ceil(total / pageSize))}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setPage(1);
          }}
        />
      </Stack>
    </Card>
  );
}

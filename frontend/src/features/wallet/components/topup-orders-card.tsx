import { Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { TOPUP_STATUSES } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { TablePager } from '@/components/table-pager';
import { useTopUpOrders } from '../hooks/use-topup-orders';
import { TopUpOrdersTable } from './topup-orders-table';

type OrderFilters = ReturnType<typeof useTopUpOrders>['filters'];

/**
 * The top-up orders: a user's own; for an admin every user's, filtered by user and status, with
 * the manual completion of a pending order paid outside.
 */
export function TopUpOrdersCard({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const { rows, total, loaded, paging, filters } = useTopUpOrders(admin);

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {admin ? t('wallet.orders.allTitle') : t('wallet.orders.title')}
      </Title>
      <Stack>
        {admin && <OrderFilterBar filters={filters} />}
        <TopUpOrdersTable rows={rows} admin={admin} loaded={loaded} />
        <TablePager
          total={total}
          page={paging.page}
          pageCount={Math.max(1, Math.ceil(total / paging.pageSize))}
          pageSize={paging.pageSize}
          onPageChange={paging.setPage}
          onPageSizeChange={paging.setPageSize}
        />
      </Stack>
    </Card>
  );
}

/** Admin: the user id, keyword and status filters. */
function OrderFilterBar({ filters }: { filters: OrderFilters }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end">
      <TextInput
        label={t('wallet.orders.userId')}
        placeholder={t('wallet.orders.userIdPlaceholder')}
        inputMode="numeric"
        value={filters.userId}
        onChange={(event) => filters.setUserId(event.currentTarget.value)}
      />
      <TextInput
        label={t('wallet.orders.keyword')}
        placeholder={t('wallet.orders.keywordPlaceholder')}
        value={filters.keyword}
        onChange={(event) => filters.setKeyword(event.currentTarget.value)}
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
        value={filters.status}
        allowDeselect={false}
        onChange={(value) => filters.setStatus(value ?? '')}
      />
    </Group>
  );
}

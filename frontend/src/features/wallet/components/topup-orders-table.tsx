import { Button, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { TOPUP_STATUSES, TopUpStatus, type TopUpOrderDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '@/components/status-badge';
import { useQuotaFormatter } from '@/features/status';
import { formatDateTime } from '@/utils/date-time';
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

/** Epay charges in yuan; Stripe's currency is its price's, not known here, so no sign. */
const YUAN_METHODS: readonly string[] = ['alipay', 'wxpay'];

/** What the user paid, with cents and thousands separators (`¥1,234.50`). */
function paid(order: TopUpOrderDto): string {
  const amount = order.money.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return YUAN_METHODS.includes(order.payment_method) ? `¥${amount}` : amount;
}

/** Columns of the user's own list; an admin's adds the user and the actions. */
const USER_COLUMNS = 6;
const ADMIN_COLUMNS = 8;

interface TopUpOrdersTableProps {
  rows: TopUpOrderDto[];
  admin: boolean;
  /** False while the first page loads: no "no orders" line yet. */
  loaded: boolean;
}

/** The orders of one page; an admin may complete a pending order paid outside. */
export function TopUpOrdersTable({ rows, admin, loaded }: TopUpOrdersTableProps) {
  const { t } = useTranslation();
  return (
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
            <OrderRow key={order.trade_no} order={order} admin={admin} />
          ))}
          {loaded && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={admin ? ADMIN_COLUMNS : USER_COLUMNS}>
                <Text c="dimmed" ta="center" py="md">
                  {t('wallet.orders.empty')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OrderRow({ order, admin }: { order: TopUpOrderDto; admin: boolean }) {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  const method = (value: string) => (known(value) ? t(`wallet.methods.${value}`) : value || '—');
  return (
    <Table.Tr data-testid={`topup-order-${order.trade_no}`}>
      <Table.Td>{order.trade_no}</Table.Td>
      {admin && <Table.Td>{order.user_id}</Table.Td>}
      <Table.Td>{method(order.payment_method)}</Table.Td>
      <Table.Td>{formatQuota(order.quota)}</Table.Td>
      <Table.Td>{paid(order)}</Table.Td>
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
          {order.status === TopUpStatus.Pending && <CompleteButton order={order} />}
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** Admin: completes a pending order after a confirmation. */
function CompleteButton({ order }: { order: TopUpOrderDto }) {
  const { t } = useTranslation();
  const complete = useCompleteOrder();
  const confirmComplete = () =>
    modals.openConfirmModal({
      title: t('wallet.orders.confirmTitle'),
      children: (
        <Text size="sm">{t('wallet.orders.confirmText', { tradeNo: order.trade_no })}</Text>
      ),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () => complete.mutate(order.trade_no),
    });
  return (
    <Button size="xs" variant="light" onClick={confirmComplete}>
      {t('wallet.orders.complete')}
    </Button>
  );
}

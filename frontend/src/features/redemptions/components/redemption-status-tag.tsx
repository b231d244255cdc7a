import { RedemptionStatus } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '@/components/status-badge';

type Key = 'unused' | 'disabled' | 'used' | 'unknown';
const LOOKS: Record<number, { color: string; key: Key }> = {
  [RedemptionStatus.Unused]: { color: 'green', key: 'unused' },
  [RedemptionStatus.Disabled]: { color: 'red', key: 'disabled' },
  [RedemptionStatus.Used]: { color: 'gray', key: 'used' },
};
const UNKNOWN: { color: string; key: Key } = { color: 'dark', key: 'unknown' };

export function RedemptionStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const look = LOOKS[status] ?? UNKNOWN;
  return <StatusBadge color={look.color}>{t(`redemptions.status.${look.key}`)}</StatusBadge>;
}

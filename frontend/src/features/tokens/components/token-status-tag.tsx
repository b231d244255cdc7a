import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '@/components/status-badge';

type Key = 'enabled' | 'limitModels' | 'disabled' | 'expired' | 'exhausted' | 'unknown';
const LOOKS: Record<number, { color: string; key: Key }> = {
  [TokenStatus.Enabled]: { color: 'green', key: 'enabled' },
  [TokenStatus.Disabled]: { color: 'red', key: 'disabled' },
  [TokenStatus.Expired]: { color: 'yellow', key: 'expired' },
  [TokenStatus.Exhausted]: { color: 'gray', key: 'exhausted' },
};
const UNKNOWN: { color: string; key: Key } = { color: 'dark', key: 'unknown' };

/** The token's status; an enabled token with model limits reads "enabled, limit models". */
export function TokenStatusTag({
  token,
}: {
  token: Pick<TokenDto, 'status' | 'model_limits_enabled'>;
}) {
  const { t } = useTranslation();
  const look = LOOKS[token.status] ?? UNKNOWN;
  const key: Key =
    token.status === TokenStatus.Enabled && token.model_limits_enabled ? 'limitModels' : look.key;
  return <StatusBadge color={look.color}>{t(`tokens.status.${key}`)}</StatusBadge>;
}

import { Badge } from '@mantine/core';
import { LogType } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

const TYPES = {
  [LogType.TopUp]: { key: 'topUp', color: 'cyan' },
  [LogType.Consume]: { key: 'consume', color: 'green' },
  [LogType.Manage]: { key: 'manage', color: 'orange' },
  [LogType.System]: { key: 'system', color: 'violet' },
  [LogType.Error]: { key: 'error', color: 'red' },
} as const;

export function LogTypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const known = TYPES[type as keyof typeof TYPES] as (typeof TYPES)[keyof typeof TYPES] | undefined;
  return (
    <Badge miw="max-content" variant="light" color={known?.color ?? 'gray'}>
      {t(`logs.type.${known?.key ?? 'unknown'}`)}
    </Badge>
  );
}

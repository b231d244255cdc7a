import { IconHistory } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { RowMenuItem } from '@/components/row-actions';

/** A row's "…" menu entry that opens its history drawer. */
export function historyMenuItem(t: TFunction, open: () => void): RowMenuItem {
  return { label: t('history.action'), icon: <IconHistory size={14} />, onClick: open };
}

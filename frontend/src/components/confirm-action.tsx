import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/lib/i18n';

interface ConfirmAction {
  title: string;
  text: string;
  /** The confirm button's words (what is about to happen, not "OK"). */
  confirm: string;
  onConfirm: () => void;
}

/** The confirm before a maintenance action that changes many rows at once (red: no undo). */
export function confirmAction({ title, text, confirm, onConfirm }: ConfirmAction): void {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{text}</Text>,
    labels: { confirm, cancel: i18n.t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}

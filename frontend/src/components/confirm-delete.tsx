import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/lib/i18n';

/** The red confirm before deleting anything in a list: a title, one line of text, 删除 / 取消. */
export function confirmDelete(title: string, text: string, onConfirm: () => void): void {
  modals.openConfirmModal({
    title,
    children: <Text size="sm">{text}</Text>,
    labels: { confirm: i18n.t('common.delete'), cancel: i18n.t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}

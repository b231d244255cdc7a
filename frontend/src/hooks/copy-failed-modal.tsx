import { Code } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '@/lib/i18n';

/** Tells that the clipboard refused (无法复制到剪贴板，请手动复制) and shows the text to select by hand. */
export function openCopyFailedModal(text: string): void {
  modals.open({
    title: i18n.t('common.copyFailed'),
    centered: true,
    children: (
      <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {text}
      </Code>
    ),
  });
}

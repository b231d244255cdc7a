import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { openCopyFailedModal } from './copy-failed-modal';
import { copyText } from '@/lib/clipboard';
import { notifySuccess } from '@/lib/notify';

/** Copies text; when the browser refuses, shows the text in a modal to copy by hand. */
export function useCopy(): (text: string, successMessage?: string) => Promise<boolean> {
  const { t } = useTranslation();
  return useCallback(
    async (text, successMessage) => {
      const copied = await copyText(text);
      if (copied) notifySuccess(successMessage ?? t('common.copied'));
      else openCopyFailedModal(text);
      return copied;
    },
    [t],
  );
}

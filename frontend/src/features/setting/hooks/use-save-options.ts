import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { statusQueries } from '@/features/status';
import { notifyError, notifyRequestError, notifySuccess } from '@/lib/notify';
import { optionQueries, optionsApi } from '../api/options.api';
import { saveOutcome, type OptionChange, type OptionKey } from '../utils/option-form';

/**
 * Query keys an option change makes stale: the shell's status, the home feature's pages and the
 * settings history shown under the form.
 */
const AFFECTED = [optionQueries.all, statusQueries.all, ['content'], ['history']] as const;

type ChangeList = readonly OptionChange[];

/**
 * Sends the changed options one PUT at a time, in card order, and says whether all, none or some
 * were saved; answers the keys the server took.
 */
export function useSaveOptions(onSaved?: (saved: readonly OptionKey[], sent: ChangeList) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ChangeList) => {
      const saved: OptionKey[] = [];
      const errors: unknown[] = [];
      for (const { key, value } of changes) {
        try {
          await optionsApi.update(key, value);
          saved.push(key);
        } catch (error) {
          errors.push(error);
        }
      }
      return { saved, errors };
    },
    onSuccess: async ({ saved, errors }, sent) => {
      // Before the refetch: the form takes what was sent as its new baseline first.
      onSaved?.(saved, sent);
      const outcome = saveOutcome(saved.length, errors.length);
      if (outcome === 'saved') notifySuccess(t('options.saved'));
      else {
        notifyError(t(outcome === 'failed' ? 'options.saveFailed' : 'options.partiallySaved'));
        // The server says why (a switch whose provider is not configured, a bad address…).
        errors.forEach(notifyRequestError);
      }
      if (saved.length > 0)
        await Promise.all(AFFECTED.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

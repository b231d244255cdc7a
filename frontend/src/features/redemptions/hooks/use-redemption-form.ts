import type { RedemptionDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/lib/notify';
import {
  buildRedemptionRequest,
  emptyRedemptionForm,
  type RedemptionFormValues,
} from '../utils/redemption-form';
import { useCreateRedemptions, useUpdateRedemption } from './use-redemption-mutations';

interface RedemptionFormTarget {
  /** The code being edited; absent to create. */
  redemption?: RedemptionDto;
  onDone: () => void;
  /** After a creation: the name and the generated keys. */
  onCreated: (name: string, keys: string[]) => void;
}

/** The redemption form's values, and its submit: create a batch of codes or edit one. */
export function useRedemptionForm({ redemption, onDone, onCreated }: RedemptionFormTarget) {
  const { t } = useTranslation();
  const creating = redemption === undefined;
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const [values, setValues] = useState<RedemptionFormValues>(() =>
    redemption
      ? { name: redemption.name, quota: redemption.quota, count: 1 }
      : emptyRedemptionForm(),
  );
  const set = <K extends keyof RedemptionFormValues>(name: K, value: RedemptionFormValues[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildRedemptionRequest(values, creating);
    if (!result.ok) {
      if (result.error) notifyError(t(result.error));
      return;
    }
    const { request } = result;
    if (creating) {
      create.mutate(request, {
        onSuccess: (keys) => {
          onDone();
          onCreated(request.name, keys ?? []);
        },
      });
    } else {
      update.mutate(
        { id: redemption.id, name: request.name, quota: request.quota },
        { onSuccess: onDone },
      );
    }
  };

  return { creating, values, set, submit, saving: create.isPending || update.isPending };
}

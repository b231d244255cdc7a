import type { RedemptionDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldErrors } from '@/hooks/use-field-errors';
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

/**
 * The redemption form's values, and its submit: create a batch of codes or edit one; a fault is
 * shown on its field.
 */
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
  const errors = useFieldErrors<keyof RedemptionFormValues>();
  const set = <K extends keyof RedemptionFormValues>(name: K, value: RedemptionFormValues[K]) => {
    errors.clear(name);
    setValues((current) => ({ ...current, [name]: value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildRedemptionRequest(values, creating);
    if (!result.ok) return errors.show(result.field, t(result.error));
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

  const saving = create.isPending || update.isPending;
  return { creating, values, set, errors, submit, saving };
}

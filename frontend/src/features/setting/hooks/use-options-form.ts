import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifyInfo } from '@/lib/notify';
import {
  acceptSaved,
  changedOptions,
  changeProblems,
  pickFields,
  rebase,
  type FieldProblem,
  type FieldSpec,
  type FormState,
  type FormValues,
  type OptionKey,
} from '../utils/option-form';
import { useOptionValues } from './use-option-values';
import { useSaveOptions } from './use-save-options';

interface OptionsFormSetup {
  readonly fields: readonly FieldSpec[];
  /** Follow-up changes of one edit. */
  readonly derive?: (values: FormValues) => FormValues;
  /** A reason (already translated) not to send anything, given the stored options. */
  readonly precondition?: (server: FormValues) => string | null;
}

export type FieldErrors = Partial<Record<OptionKey, string>>;

const problemText = (t: TFunction, problem: FieldProblem) =>
  problem.code === 'belowMinimum'
    ? t('options.belowMinimum', { min: problem.min })
    : t(`options.${problem.code}`);

/**
 * One settings card's form: its fields start from the stored options (secrets blank) and follow
 * them where not edited; `submit` checks what changed and sends only that, one PUT per key in card
 * order. `form` is null until the options are loaded.
 */
export function useOptionsForm({ fields, derive, precondition }: OptionsFormSetup) {
  const { t } = useTranslation();
  const server = useOptionValues();
  const [form, setForm] = useState<FormState | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveOptions((saved, sent) =>
    setForm((previous) => previous && acceptSaved(previous, fields, saved, sent)),
  );

  useEffect(() => {
    if (server) setForm((previous) => rebase(previous, pickFields(fields, server)));
  }, [server, fields]);

  const apply = (key: OptionKey, value: string) => {
    setErrors(({ [key]: _cleared, ...rest }) => rest);
    setForm((previous) => {
      if (!previous) return previous;
      const next = { ...previous.values, [key]: value };
      return { ...previous, values: derive ? derive(next) : next };
    });
  };

  const submit = () => {
    if (!form || !server) return;
    const changes = changedOptions(fields, form);
    if (changes.length === 0) return notifyInfo(t('options.unchanged'));
    const problems = Object.entries(changeProblems(fields, changes)).map(
      ([key, problem]) => [key, problemText(t, problem)] as const,
    );
    setErrors(Object.fromEntries(problems));
    if (problems.length > 0) return notifyError(t('options.checkInput'));
    const refusal = precondition?.(server);
    if (refusal) return notifyError(refusal);
    save.mutate(changes);
  };

  return { form, values: form?.values ?? {}, errors, apply, submit, saving: save.isPending };
}

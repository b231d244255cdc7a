import type { BudgetPeriodName, UserDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { budgetError } from '@/features/tokens';
import { notifyError } from '@/lib/notify';

const MIN_PASSWORD_LENGTH = 8;

export interface EditUserValues {
  username: string;
  display_name: string;
  password: string;
  original_password: string;
  group: string;
  quota: number;
  /** The balance shown when the form opened: the server refuses the edit if it moved since. */
  shown_quota: number;
  remark: string;
  /** The periodic budget (docs/budgets.md): '' = none; quota units per period. */
  period: BudgetPeriodName;
  period_quota: number | string;
}

/** Sets one field of the user form. */
export type SetUserField = <K extends keyof EditUserValues>(
  name: K,
  value: EditUserValues[K],
) => void;

const valuesOf = (user: UserDto): EditUserValues => ({
  username: user.username,
  display_name: user.display_name,
  password: '',
  original_password: '',
  group: user.group || 'default',
  quota: user.quota,
  shown_quota: user.quota,
  remark: user.remark ?? '',
  period: user.period ?? '',
  period_quota: user.period_quota ?? 0,
});

/**
 * The user form's values and its submit: a new password needs 8 characters and, for oneself, the
 * current one; an admin's budget must be a period with a quota. The first fault is a notice.
 */
export function useEditUserForm(
  user: UserDto,
  other: boolean,
  onSubmit: (values: EditUserValues) => void,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<EditUserValues>(() => valuesOf(user));
  const set: SetUserField = (name, value) =>
    setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (values.password && values.password.length < MIN_PASSWORD_LENGTH) {
      return notifyError(t('auth.passwordTooShort'));
    }
    if (!other && values.password && !values.original_password) {
      return notifyError(t('setting.enterCurrentPassword'));
    }
    const periodError = other && budgetError(values.period, values.period_quota);
    if (periodError) return notifyError(t(periodError));
    onSubmit(values);
  };

  return { values, set, submit };
}

import type { TokenDto } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldErrors } from '@/hooks/use-field-errors';
import { nowSeconds } from '@/utils/date-time';
import {
  buildTokenRequest,
  emptyTokenForm,
  tokenToForm,
  type TokenFormValues,
} from '../utils/token-form';
import { useCreateTokens, useUpdateToken } from './use-token-mutations';

/** Sets one field of the token form. */
export type SetTokenField = <K extends keyof TokenFormValues>(
  name: K,
  value: TokenFormValues[K],
) => void;

/**
 * The token drawer's values and its submit: the values are checked (the first fault is shown on
 * its field, scrolled into view), then one request creates the batch or updates the token, and `onDone` closes the drawer.
 */
export function useTokenForm(token: TokenDto | undefined, onDone: () => void) {
  const { t } = useTranslation();
  const creating = token === undefined;
  const create = useCreateTokens();
  const update = useUpdateToken();
  const [values, setValues] = useState<TokenFormValues>(() =>
    token ? tokenToForm(token) : emptyTokenForm(),
  );
  const errors = useFieldErrors<keyof TokenFormValues>();
  const set: SetTokenField = (name, value) => {
    errors.clear(name);
    setValues((current) => ({ ...current, [name]: value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = buildTokenRequest(values, nowSeconds(), creating);
    if (!result.ok) return errors.show(result.field, t(result.error));
    if (creating) create.mutate(result.request, { onSuccess: onDone });
    else update.mutate({ ...result.request, id: token.id }, { onSuccess: onDone });
  };

  return {
    values,
    set,
    errors,
    submit,
    creating,
    pending: create.isPending || update.isPending,
  };
}

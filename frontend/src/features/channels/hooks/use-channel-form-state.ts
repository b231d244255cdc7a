import { useState } from 'react';
import { useFieldErrors } from '@/hooks/use-field-errors';
import type { ChannelFormValues } from '../utils/channel-form';

/** Whether the form adds a channel or edits a stored one (the key rules differ). */
export type ChannelFormMode = 'create' | 'edit';

/** Sets one field of the channel form. */
export type SetChannelField = <K extends keyof ChannelFormValues>(
  name: K,
  value: ChannelFormValues[K],
) => void;

/** The channel form's values, with a setter for one field at a time (which clears its fault). */
export function useChannelFormState(initial: ChannelFormValues) {
  const [values, setValues] = useState<ChannelFormValues>(initial);
  const errors = useFieldErrors<string>();
  const set: SetChannelField = (name, value) => {
    errors.clear(name);
    setValues((current) => ({ ...current, [name]: value }));
  };
  return { values, setValues, set, errors };
}

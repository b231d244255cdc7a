import { createContext, useContext } from 'react';
import { FIELD_ATTRIBUTE, type FieldErrors } from './use-field-errors';

/**
 * A form's faults for fields drawn by components deep inside it (the channel form's sections), so
 * they need no prop threaded through every level.
 */
export const FieldErrorsContext = createContext<FieldErrors<string> | null>(null);

/** A field's fault and marker from the enclosing form; only the marker outside one. */
export function useFieldError(field: string): { error?: string; [FIELD_ATTRIBUTE]: string } {
  const errors = useContext(FieldErrorsContext);
  return errors ? errors.props(field) : { [FIELD_ATTRIBUTE]: field };
}

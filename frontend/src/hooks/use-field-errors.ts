import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { notifyError } from '@/lib/notify';

/** The attribute a form's inputs carry so a fault can find the one it is about. */
export const FIELD_ATTRIBUTE = 'data-field';

export interface FieldErrors<F extends string> {
  /** Put on the form (or the element holding the fields): faults look for their field inside it. */
  readonly ref: RefObject<HTMLFormElement | null>;
  /** Spread on a field's input: its fault's text (shown under it, red) and its marker. */
  props(field: F): { error?: string; [FIELD_ATTRIBUTE]: F };
  /** Shows a fault on its field, scrolls the field into view and focuses it. */
  show(field: F, message: string): void;
  /** Forgets a field's fault (it was edited), or all of them. */
  clear(field?: F): void;
}

interface Fault<F> {
  readonly field: F;
  readonly message: string;
}

/**
 * The forms' shared fault pattern: the first fault found on submit is shown on its field, which
 * is scrolled into view and focused, instead of a toast about a field the user cannot see. A fault
 * about a field that is not on screen (a hidden section) falls back to a toast.
 */
export function useFieldErrors<F extends string>(): FieldErrors<F> {
  const ref = useRef<HTMLFormElement | null>(null);
  const [fault, setFault] = useState<Fault<F> | null>(null);
  // Scrolls once per show(), not again when the form re-renders with the same fault.
  const pending = useRef<Fault<F> | null>(null);

  useEffect(() => {
    const shown = pending.current;
    if (!shown || shown !== fault) return;
    pending.current = null;
    const input = ref.current?.querySelector<HTMLElement>(`[${FIELD_ATTRIBUTE}="${shown.field}"]`);
    if (!input) return notifyError(shown.message);
    input.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    input.focus({ preventScroll: true });
  }, [fault]);

  const show = useCallback((field: F, message: string) => {
    const next = { field, message };
    pending.current = next;
    setFault(next);
  }, []);
  const clear = useCallback(
    (field?: F) => setFault((current) => (!field || current?.field === field ? null : current)),
    [],
  );
  const props = (field: F) => ({
    ...(fault?.field === field ? { error: fault.message } : {}),
    [FIELD_ATTRIBUTE]: field,
  });
  return { ref, props, show, clear };
}

import { useCallback, useEffect, useRef, useState } from 'react';

/** The drawer's form resets 500 ms after closing (after its slide-out). */
export const DRAWER_RESET_MS = 500;

export interface EditDrawer<T> {
  opened: boolean;
  /** The row being edited, or null to create; kept while the drawer slides out. */
  item: T | null;
  /** Changes each time the drawer opens: key the form with it so it starts from fresh values. */
  key: number;
  open: (item: T | null) => void;
  close: () => void;
}

/** The state of an add/edit side drawer (tokens, redemption codes). */
export function useEditDrawer<T>(): EditDrawer<T> {
  const [state, setState] = useState<{ opened: boolean; item: T | null; key: number }>({
    opened: false,
    item: null,
    key: 0,
  });
  const resetTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const open = useCallback((item: T | null) => {
    window.clearTimeout(resetTimer.current);
    setState((current) => ({ opened: true, item, key: current.key + 1 }));
  }, []);
  const close = useCallback(() => {
    setState((current) => ({ ...current, opened: false }));
    resetTimer.current = window.setTimeout(
      () => setState((current) => ({ ...current, item: null })),
      DRAWER_RESET_MS,
    );
  }, []);
  return { ...state, open, close };
}

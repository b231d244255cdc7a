import { useEffect, useState } from 'react';

/**
 * A filter bar's editable text fields: a copy of `source` (made again whenever `source` changes,
 * e.g. after a search), and `bind(name)`, the value and onChange of the text input for one field.
 * `toDraft` must be stable (a module-level function).
 */
export function useDraft<Source, Draft extends Record<keyof Draft, string>>(
  source: Source,
  toDraft: (source: Source) => Draft,
) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(source));
  useEffect(() => setDraft(toDraft(source)), [source, toDraft]);
  const bind = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  return { draft, bind };
}

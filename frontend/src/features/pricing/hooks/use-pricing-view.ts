import { useQuery } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { useStatus } from '@/features/status';
import { useCopy } from '@/hooks/use-copy';
import { notifyInfo } from '@/lib/notify';
import { pricingQueries } from '../api/pricing.api';
import { initialGroup, matchesModelName } from '../utils/model-filter';
import { ratioOf } from '../utils/prices';

/**
 * The pricing page's state: the prices for the caller, the group shown (the chosen one while
 * usable, else the one the page opens on), the model filter and the selected rows.
 */
export function usePricingView() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const status = useStatus();
  const copy = useCopy();
  const pricing = useQuery(pricingQueries.current(user?.id ?? null));
  const [filter, setFilter] = useState('');
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const [selection, setSelection] = useState<RowSelectionState>({});

  const usable = useMemo(() => pricing.data?.usable_group ?? {}, [pricing.data]);
  const ratios = useMemo(() => pricing.data?.group_ratio ?? {}, [pricing.data]);
  const group =
    chosenGroup !== null && Object.hasOwn(usable, chosenGroup)
      ? chosenGroup
      : initialGroup(usable, user?.group ?? null);
  const display = useMemo(
    () => ({
      displayInCurrency: status.display_in_currency,
      quotaPerUnit: status.quota_per_unit,
    }),
    [status.display_in_currency, status.quota_per_unit],
  );
  const rows = useMemo(
    () => (pricing.data?.data ?? []).filter((row) => matchesModelName(row.model_name, filter)),
    [pricing.data, filter],
  );
  const selected = (pricing.data?.data ?? [])
    .map((row) => row.model_name)
    .filter((name) => selection[name]);

  const switchGroup = useCallback(
    (next: string) => {
      setChosenGroup(next);
      notifyInfo(t('pricing.groupSwitched', { group: next, ratio: ratioOf(ratios, next) }));
    },
    [t, ratios],
  );
  const copyName = useCallback((name: string) => void copy(name), [copy]);
  // new-api copies the selected names comma-joined.
  const copySelected = () => void copy(selected.join(','));

  return {
    user,
    loading: pricing.isFetching,
    usable,
    ratios,
    group,
    groupRatio: ratioOf(ratios, group),
    display,
    rows,
    filter,
    setFilter,
    selection,
    setSelection,
    selected,
    switchGroup,
    copyName,
    copySelected,
  };
}

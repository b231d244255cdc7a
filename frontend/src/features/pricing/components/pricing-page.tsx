import { Alert, Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { IconCopy, IconInfoCircle, IconSearch, IconUsers } from '@tabler/icons-react';
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
import { PricingTable } from './pricing-table';

/**
 * /pricing (public): banners, a group switcher, the fuzzy model filter, copy-selected, and the table
 * with each model's price in the selected group (dollars or quota, as the site displays money).
 */
export function PricingPage() {
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
  const groupRatio = ratioOf(ratios, group);
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

  return (
    <Stack>
      <Title order={2}>{t('nav.pricing')}</Title>
      <Alert
        color={user ? 'green' : 'yellow'}
        icon={<IconUsers size={18} />}
        data-testid="pricing-group-banner"
      >
        {user
          ? t('pricing.signedIn', { group: user.group, ratio: ratioOf(ratios, user.group) })
          : t('pricing.anonymous', { ratio: ratioOf(ratios, 'default') })}
      </Alert>
      <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="pricing-formula">
        {t('pricing.formula')}
      </Alert>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              style={{ flex: '1 1 200px' }}
              aria-label={t('pricing.search')}
              placeholder={t('pricing.search')}
              leftSection={<IconSearch size={16} />}
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              data-testid="pricing-filter"
            />
            <Select
              style={{ flex: '0 1 220px' }}
              label={t('pricing.group')}
              data={Object.keys(usable).map((name) => ({
                value: name,
                label: t('pricing.groupOption', { group: name, ratio: ratioOf(ratios, name) }),
              }))}
              value={group || null}
              onChange={(next) => next && switchGroup(next)}
              allowDeselect={false}
              checkIconPosition="right"
              data-testid="pricing-group"
            />
            <Button
              variant="light"
              leftSection={<IconCopy size={16} />}
              disabled={selected.length === 0}
              // new-api copies the selected names comma-joined.
              onClick={() => void copy(selected.join(','))}
            >
              {t('pricing.copySelected')}
            </Button>
          </Group>
          <PricingTable
            rows={rows}
            loading={pricing.isFetching}
            group={group}
            groupRatio={groupRatio}
            usable={usable}
            display={display}
            selection={selection}
            onSelectionChange={setSelection}
            onGroupChange={switchGroup}
            onCopyName={copyName}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}

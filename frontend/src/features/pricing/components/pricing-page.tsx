import { Alert, Button, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import { IconCopy, IconInfoCircle, IconSearch, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePricingView } from '../hooks/use-pricing-view';
import { ratioOf } from '../utils/prices';
import { PricingTable } from './pricing-table';

type PricingView = ReturnType<typeof usePricingView>;

/**
 * /pricing (public): banners, a group switcher, the fuzzy model filter, copy-selected, and the table
 * with each model's price in the selected group (dollars or quota, as the site displays money).
 */
export function PricingPage() {
  const { t } = useTranslation();
  const view = usePricingView();
  const { user, ratios } = view;

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
          <PricingToolbar view={view} />
          <PricingTable
            rows={view.rows}
            loading={view.loading}
            group={view.group}
            groupRatio={view.groupRatio}
            usable={view.usable}
            display={view.display}
            selection={view.selection}
            onSelectionChange={view.setSelection}
            onGroupChange={view.switchGroup}
            onCopyName={view.copyName}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}

/** The model filter, the group switcher and "copy selected". */
function PricingToolbar({ view }: { view: PricingView }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        style={{ flex: '1 1 200px' }}
        aria-label={t('pricing.search')}
        placeholder={t('pricing.search')}
        leftSection={<IconSearch size={16} />}
        value={view.filter}
        onChange={(event) => view.setFilter(event.currentTarget.value)}
        data-testid="pricing-filter"
      />
      <Select
        style={{ flex: '0 1 220px' }}
        label={t('pricing.group')}
        data={Object.keys(view.usable).map((name) => ({
          value: name,
          label: t('pricing.groupOption', { group: name, ratio: ratioOf(view.ratios, name) }),
        }))}
        value={view.group || null}
        onChange={(next) => next && view.switchGroup(next)}
        allowDeselect={false}
        checkIconPosition="right"
        data-testid="pricing-group"
      />
      <Button
        variant="light"
        leftSection={<IconCopy size={16} />}
        disabled={view.selected.length === 0}
        onClick={view.copySelected}
      >
        {t('pricing.copySelected')}
      </Button>
    </Group>
  );
}

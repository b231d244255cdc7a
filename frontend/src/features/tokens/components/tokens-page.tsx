import { Alert, Paper, Stack, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TokenDto } from '@tollgate/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tokenQueries } from '../api/tokens.api';
import { useTokensTableParams } from '../hooks/use-tokens-table-params';
import { TokenDrawer } from './token-drawer';
import { TokensSearchBar } from './tokens-search-bar';
import { TokensTable } from './tokens-table';

/** Spec 001 §9: the drawer's form resets 500 ms after closing (after its slide-out). */
const DRAWER_RESET_MS = 500;

/** /token: warning banner, search, selectable table, add/edit drawer. */
export function TokensPage() {
  const { t } = useTranslation();
  const { params, update, paginate } = useTokensTableParams();
  const tokens = useQuery(tokenQueries.list(params));
  const [drawer, setDrawer] = useState<{ opened: boolean; token: TokenDto | null; key: number }>({
    opened: false,
    token: null,
    key: 0,
  });
  const resetTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const open = useCallback((token: TokenDto | null) => {
    window.clearTimeout(resetTimer.current);
    setDrawer((current) => ({ opened: true, token, key: current.key + 1 }));
  }, []);
  const close = () => {
    setDrawer((current) => ({ ...current, opened: false }));
    resetTimer.current = window.setTimeout(
      () => setDrawer((current) => ({ ...current, token: null })),
      DRAWER_RESET_MS,
    );
  };

  return (
    <Stack>
      <Title order={2}>{t('tokens.title')}</Title>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="tokens-warning">
        {t('tokens.warning')}
      </Alert>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <TokensSearchBar
            keyword={params.keyword}
            token={params.token}
            onSearch={(filters) => update({ page: 1, filters })}
          />
          <TokensTable
            rows={tokens.data}
            paging={{ page: params.page, pageSize: params.pageSize, onPaginationChange: paginate }}
            loading={tokens.isFetching}
            onAdd={() => open(null)}
            onEdit={open}
          />
        </Stack>
      </Paper>
      <TokenDrawer
        opened={drawer.opened}
        token={drawer.token}
        formKey={drawer.key}
        onClose={close}
      />
    </Stack>
  );
}

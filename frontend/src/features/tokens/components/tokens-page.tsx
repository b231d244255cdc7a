import { Alert, Paper, Stack, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useEditDrawer } from '@/hooks/use-edit-drawer';
import { tokenQueries } from '../api/tokens.api';
import { useTokensTableParams } from '../hooks/use-tokens-table-params';
import { TokenDrawer } from './token-drawer';
import { TokensSearchBar } from './tokens-search-bar';
import { TokensTable } from './tokens-table';

/** /token: warning banner, search, selectable table, add/edit drawer. */
export function TokensPage() {
  const { t } = useTranslation();
  const { params, update, paginate } = useTokensTableParams();
  const tokens = useQuery(tokenQueries.list(params));
  const drawer = useEditDrawer<TokenDto>();

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
            onAdd={() => drawer.open(null)}
            onEdit={drawer.open}
          />
        </Stack>
      </Paper>
      <TokenDrawer
        opened={drawer.opened}
        token={drawer.item}
        formKey={drawer.key}
        onClose={drawer.close}
      />
    </Stack>
  );
}

import { TokenStatus, type TokenDto } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { AddCopyToolbar } from '@/components/add-copy-toolbar';
import {
  DataTable,
  selectableFeatures,
  useServerTable,
  type ServerPaging,
} from '@/components/data-table';
import { useTokenColumns } from './token-columns';

interface TokensTableProps {
  rows: TokenDto[] | undefined;
  /** Without a total: the server answers the token list as a bare array. */
  paging: Omit<ServerPaging, 'total'>;
  loading: boolean;
  onAdd: () => void;
  onEdit: (token: TokenDto) => void;
}

/** Rows of tokens that are not enabled are greyed. */
function tokenRowProps(token: TokenDto) {
  const inactive = token.status !== TokenStatus.Enabled;
  return {
    'data-testid': `token-row-${token.name}`,
    'data-inactive': inactive || undefined,
    bg: inactive ? 'var(--mantine-color-default-hover)' : undefined,
    c: inactive ? 'dimmed' : undefined,
  };
}

export function TokensTable({ rows, paging, loading, onAdd, onEdit }: TokensTableProps) {
  const { t } = useTranslation();
  const columns = useTokenColumns(onEdit);
  const table = useServerTable({ features: selectableFeatures, columns, data: rows });

  return (
    <DataTable
      table={table}
      paging={paging}
      loading={loading}
      minWidth={900}
      testId="tokens-table"
      toolbar={
        <AddCopyToolbar
          addLabel={t('tokens.add')}
          onAdd={onAdd}
          copyLabel={t('tokens.copySelected')}
          noneSelected={t('tokens.selectAtLeastOne')}
          selected={() => table.getSelectedRowModel().rows.map((row) => row.original)}
          line={(token) => `${token.name}    sk-${token.key}`}
        />
      }
      rowProps={(row) => tokenRowProps(row.original)}
    />
  );
}

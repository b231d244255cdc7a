import { Button, Drawer, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { RedemptionDto } from '@tollgate/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditDrawer } from '@/hooks/use-edit-drawer';
import { downloadText } from '@/lib/download';
import { redemptionQueries } from '../api/redemptions.api';
import { useRedemptionsTableParams } from '../hooks/use-redemptions-table-params';
import { RedemptionForm } from './redemption-form';
import { RedemptionsTable } from './redemptions-table';

/** /redemption (admin): search by id or name, table, add/edit drawer, download after creating. */
export function RedemptionsPage() {
  const { t } = useTranslation();
  const { params, update, paginate } = useRedemptionsTableParams();
  const codes = useQuery(redemptionQueries.list(params));
  const [draft, setDraft] = useState(params.keyword);
  useEffect(() => setDraft(params.keyword), [params.keyword]);
  const drawer = useEditDrawer<RedemptionDto>();

  const search = (event: FormEvent) => {
    event.preventDefault();
    update({ page: 1, filters: { keyword: draft.trim() } });
  };

  // After creating, offer the codes as `<name>.txt`.
  const offerDownload = (name: string, keys: string[]) =>
    modals.openConfirmModal({
      title: t('redemptions.downloadTitle'),
      children: (
        <Stack gap={4}>
          <Text size="sm">{t('redemptions.downloadAsk')}</Text>
          <Text size="sm" c="dimmed">
            {t('redemptions.downloadHint')}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('redemptions.download'), cancel: t('common.cancel') },
      onConfirm: () => downloadText(`${name}.txt`, keys.join('\n')),
    });

  return (
    <Stack>
      <Title order={2}>{t('redemptions.title')}</Title>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <form onSubmit={search}>
            <Group align="flex-end">
              <TextInput
                style={{ flex: 1, minWidth: 220 }}
                leftSection={<IconSearch size={16} />}
                placeholder={t('redemptions.searchPlaceholder')}
                aria-label={t('redemptions.searchLabel')}
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
              />
              <Button type="submit">{t('common.search')}</Button>
            </Group>
          </form>
          <RedemptionsTable
            rows={codes.data?.items}
            paging={{
              page: params.page,
              pageSize: params.pageSize,
              total: codes.data?.total ?? 0,
              onPaginationChange: paginate,
            }}
            loading={codes.isFetching}
            onAdd={() => drawer.open(null)}
            onEdit={drawer.open}
          />
        </Stack>
      </Paper>
      <Drawer
        opened={drawer.opened}
        onClose={drawer.close}
        position="right"
        size="md"
        title={
          drawer.item ? t('redemptions.drawer.editTitle') : t('redemptions.drawer.createTitle')
        }
      >
        <RedemptionForm
          key={drawer.key}
          redemption={drawer.item ?? undefined}
          onDone={drawer.close}
          onCreated={offerDownload}
        />
      </Drawer>
    </Stack>
  );
}

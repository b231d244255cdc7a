import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { userQueries } from '../api/users.api';
import { useUsersTableParams } from '../hooks/use-users-table-params';
import { AddUserModal } from './add-user-modal';
import { UsersSearchBar } from './users-search-bar';
import { UsersTable } from './users-table';

/** 管理用户: search, paged table, add. */
export function UsersPage() {
  const { t } = useTranslation();
  const { params, update, paginate } = useUsersTableParams();
  const users = useQuery(userQueries.list(params));
  const [addOpened, add] = useDisclosure(false);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('users.title')}</Title>
        <Button leftSection={<IconUserPlus size={16} />} onClick={add.open}>
          {t('users.add')}
        </Button>
      </Group>
      <Paper withBorder p="md" radius="md">
        <Stack>
          <UsersSearchBar
            keyword={params.keyword}
            group={params.group}
            onSearch={(filters) => update({ page: 1, filters })}
          />
          <UsersTable
            rows={users.data?.items}
            paging={{
              page: params.page,
              pageSize: params.pageSize,
              total: users.data?.total ?? 0,
              onPaginationChange: paginate,
            }}
            loading={users.isFetching}
          />
        </Stack>
      </Paper>
      {addOpened && <AddUserModal opened onClose={add.close} />}
    </Stack>
  );
}

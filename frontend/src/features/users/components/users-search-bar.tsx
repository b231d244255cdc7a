import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { groupQueries } from '../api/users.api';

interface UsersSearchBarProps {
  keyword: string;
  group: string;
  onSearch: (filters: { keyword: string; group: string }) => void;
}

/** Keyword and group filters; applied on submit so typing does not fire a request per key. */
export function UsersSearchBar({ keyword, group, onSearch }: UsersSearchBarProps) {
  const { t } = useTranslation();
  const groups = useQuery(groupQueries.names());
  const [draftKeyword, setDraftKeyword] = useState(keyword);
  const [draftGroup, setDraftGroup] = useState(group);

  // Back/forward navigation changes the URL: the inputs follow it.
  useEffect(() => setDraftKeyword(keyword), [keyword]);
  useEffect(() => setDraftGroup(group), [group]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ keyword: draftKeyword.trim(), group: draftGroup });
  };

  return (
    <form onSubmit={submit}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 1, minWidth: 220 }}
          leftSection={<IconSearch size={16} />}
          placeholder={t('users.searchPlaceholder')}
          aria-label={t('users.searchKeyword')}
          name="keyword"
          value={draftKeyword}
          onChange={(event) => setDraftKeyword(event.currentTarget.value)}
        />
        <Select
          w={180}
          placeholder={t('users.groupPlaceholder')}
          aria-label={t('users.columns.group')}
          data={groups.data ?? []}
          value={draftGroup || null}
          onChange={(value) => setDraftGroup(value ?? '')}
          clearable
          searchable
        />
        <Button type="submit">{t('common.search')}</Button>
      </Group>
    </form>
  );
}

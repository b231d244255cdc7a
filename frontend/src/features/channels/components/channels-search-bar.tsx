import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { groupQueries } from '@/features/users';

export interface ChannelFilters {
  keyword: string;
  model: string;
  group: string;
}

interface ChannelsSearchBarProps extends ChannelFilters {
  onSearch: (filters: ChannelFilters) => void;
}

/** Keyword, model and group filters; applied on submit so typing does not fire a request per key. */
export function ChannelsSearchBar({ keyword, model, group, onSearch }: ChannelsSearchBarProps) {
  const { t } = useTranslation();
  const groups = useQuery(groupQueries.names());
  const [draft, setDraft] = useState<ChannelFilters>({ keyword, model, group });

  // Back/forward navigation changes the URL: the inputs follow it.
  useEffect(() => setDraft({ keyword, model, group }), [keyword, model, group]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ keyword: draft.keyword.trim(), model: draft.model.trim(), group: draft.group });
  };

  return (
    <form onSubmit={submit}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 2, minWidth: 220 }}
          leftSection={<IconSearch size={16} />}
          placeholder={t('channels.searchPlaceholder')}
          aria-label={t('channels.searchKeyword')}
          name="keyword"
          value={draft.keyword}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setDraft((current) => ({ ...current, keyword: value }));
          }}
        />
        <TextInput
          style={{ flex: 1, minWidth: 160 }}
          placeholder={t('channels.modelPlaceholder')}
          aria-label={t('channels.searchModel')}
          name="model"
          value={draft.model}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setDraft((current) => ({ ...current, model: value }));
          }}
        />
        <Select
          w={180}
          placeholder={t('channels.groupPlaceholder')}
          aria-label={t('channels.columns.group')}
          data={groups.data ?? []}
          value={draft.group || null}
          onChange={(value) => setDraft((current) => ({ ...current, group: value ?? '' }))}
          clearable
          searchable
        />
        <Button type="submit">{t('common.search')}</Button>
      </Group>
    </form>
  );
}

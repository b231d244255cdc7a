import { Button, Group, TextInput } from '@mantine/core';
import { IconKey, IconSearch } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface TokensSearchBarProps {
  keyword: string;
  token: string;
  onSearch: (filters: { keyword: string; token: string }) => void;
}

/** Name and key search; inputs are trimmed, both empty reloads the plain list. */
export function TokensSearchBar({ keyword, token, onSearch }: TokensSearchBarProps) {
  const { t } = useTranslation();
  const [draftKeyword, setDraftKeyword] = useState(keyword);
  const [draftToken, setDraftToken] = useState(token);

  useEffect(() => setDraftKeyword(keyword), [keyword]);
  useEffect(() => setDraftToken(token), [token]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A pasted `sk-` key is searched without its prefix, the way keys travel on the wire.
    onSearch({ keyword: draftKeyword.trim(), token: draftToken.trim().replace(/^sk-/, '') });
  };

  return (
    <form onSubmit={submit}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 1, minWidth: 200 }}
          leftSection={<IconSearch size={16} />}
          placeholder={t('tokens.searchName')}
          aria-label={t('tokens.searchNameLabel')}
          value={draftKeyword}
          onChange={(event) => setDraftKeyword(event.currentTarget.value)}
        />
        <TextInput
          style={{ flex: 1, minWidth: 200 }}
          leftSection={<IconKey size={16} />}
          placeholder={t('tokens.searchKey')}
          aria-label={t('tokens.searchKeyLabel')}
          value={draftToken}
          onChange={(event) => setDraftToken(event.currentTarget.value)}
        />
        <Button type="submit">{t('common.search')}</Button>
      </Group>
    </form>
  );
}

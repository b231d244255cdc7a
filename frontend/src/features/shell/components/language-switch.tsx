import { ActionIcon, Menu } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@/lib/locales';

/** zh-CN ⇄ en; i18next's detector stores the choice, so it is remembered. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('shell.language')}
          data-testid="language-switch"
        >
          <IconLanguage size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language.code}
            fw={i18n.resolvedLanguage === language.code ? 700 : undefined}
            onClick={() => void i18n.changeLanguage(language.code)}
          >
            {language.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

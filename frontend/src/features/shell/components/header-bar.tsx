import {
  ActionIcon,
  Badge,
  Burger,
  Button,
  Group,
  Image,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconBook, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '@/features/auth';
import { useStatus } from '@/features/status';
import { LanguageSwitch } from './language-switch';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';

interface HeaderBarProps {
  isMobile: boolean;
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

/** The top bar: logo and name, about, theme, then sign-in links or the user menu. */
export function HeaderBar({ isMobile, navbarOpened, onToggleNavbar }: HeaderBarProps) {
  const { t } = useTranslation();
  const { system_name, logo, docs_link, demo_site_enabled, self_use_mode_enabled } = useStatus();
  // new-api's header tag: self-use mode wins over demo site when both are on.
  const mode = self_use_mode_enabled ? 'selfUse' : demo_site_enabled ? 'demoSite' : undefined;
  const user = useSessionUser();

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {isMobile && (
          <Burger
            opened={navbarOpened}
            onClick={onToggleNavbar}
            size="sm"
            aria-label={t('shell.toggleNavigation')}
          />
        )}
        <UnstyledButton component={Link} to="/" aria-label={system_name}>
          <Group gap="xs" wrap="nowrap">
            <Image src={logo || '/logo.png'} alt="" w={32} h={32} />
            <Text fw={700} size="lg" truncate maw={isMobile ? 120 : 240}>
              {system_name}
            </Text>
          </Group>
        </UnstyledButton>
        {mode && (
          <Badge size="sm" variant="light" color={mode === 'selfUse' ? 'grape' : 'blue'}>
            {t(`shell.${mode}`)}
          </Badge>
        )}
      </Group>
      <Group gap={6} wrap="nowrap">
        {docs_link && (
          <Tooltip label={t('shell.docs')}>
            <ActionIcon
              component="a"
              href={docs_link}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              size="lg"
              aria-label={t('shell.docs')}
            >
              <IconBook size={18} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label={t('shell.about')}>
          <ActionIcon
            component={Link}
            to="/about"
            variant="default"
            size="lg"
            aria-label={t('shell.about')}
          >
            <IconInfoCircle size={18} />
          </ActionIcon>
        </Tooltip>
        <LanguageSwitch />
        <ThemeToggle />
        {user ? (
          <UserMenu user={user} compact={isMobile} />
        ) : (
          <>
            <Button component={Link} to="/login" variant="subtle" size="compact-md">
              {t('auth.login')}
            </Button>
            {!isMobile && (
              <Button component={Link} to="/register" variant="light" size="compact-md">
                {t('auth.register')}
              </Button>
            )}
          </>
        )}
      </Group>
    </Group>
  );
}

import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { UserDto } from '@tollgate/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  GithubBindButton,
  LinuxDoBindButton,
  OidcBindButton,
  TelegramBindWidget,
  WechatBindButton,
} from '@/features/auth';
import { useStatus } from '@/features/status';
import { EmailBindModal } from './email-bind-modal';

/** Email, WeChat, GitHub, Telegram, OIDC and Linux DO bindings; the email is bound by a mailed code. */
export function BindingsCard({ user }: { user: UserDto | undefined }) {
  const { t } = useTranslation();
  const [emailOpen, setEmailOpen] = useState(false);
  const status = useStatus();
  const rows: Array<readonly [string, string | undefined]> = [
    [t('setting.bindEmail'), user?.email],
    [t('setting.bindWechat'), user?.wechat_id],
    [t('setting.bindGithub'), user?.github_id],
    [t('setting.bindTelegram'), user?.telegram_id],
    ...(status.oidc_enabled ? [[t('oauth.bindOidc'), user?.oidc_id] as const] : []),
    ...(status.linuxdo_oauth ? [[t('oauth.bindLinuxdo'), user?.linux_do_id] as const] : []),
  ];
  // Third-party binds, offered while unbound and enabled (one id per provider and user).
  const bindControls: Record<string, ReactNode> = {
    [t('setting.bindWechat')]: status.wechat_login && <WechatBindButton />,
    [t('setting.bindGithub')]: status.github_oauth && <GithubBindButton />,
    [t('setting.bindTelegram')]: status.telegram_oauth && <TelegramBindWidget />,
    [t('oauth.bindOidc')]: status.oidc_enabled && <OidcBindButton />,
    [t('oauth.bindLinuxdo')]: status.linuxdo_oauth && <LinuxDoBindButton />,
  };

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('setting.bindingsTitle')}
      </Title>
      <Stack gap="xs">
        {rows.map(([label, value]) => (
          <Group key={label} justify="space-between" wrap="nowrap">
            <Text>{label}</Text>
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Text c={value ? undefined : 'dimmed'} truncate>
                {value || t('setting.notBound')}
              </Text>
              {label === t('setting.bindEmail') && (
                <Button size="xs" variant="light" onClick={() => setEmailOpen(true)}>
                  {value ? t('mail.change') : t('mail.bind')}
                </Button>
              )}
              {!value && bindControls[label]}
            </Group>
          </Group>
        ))}
      </Stack>
      <EmailBindModal opened={emailOpen} onClose={() => setEmailOpen(false)} />
    </Card>
  );
}

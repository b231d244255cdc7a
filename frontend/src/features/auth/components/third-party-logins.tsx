import { Divider, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { GithubLoginButton } from './github-login-button';
import { LinuxDoLoginButton } from './linuxdo-login-button';
import { OidcLoginButton } from './oidc-login-button';
import { TelegramLoginWidget } from './telegram-login-widget';
import { WechatLoginButton } from './wechat-login-button';

/** GitHub, WeChat, Telegram, OIDC and Linux DO sign-in, each only when the status enables it. */
export function ThirdPartyLogins() {
  const { t } = useTranslation();
  const status = useStatus();
  if (
    !status.github_oauth &&
    !status.wechat_login &&
    !status.telegram_oauth &&
    !status.oidc_enabled &&
    !status.linuxdo_oauth
  )
    return null;

  return (
    <Stack gap="sm">
      <Divider label={t('auth.orUse')} labelPosition="center" />
      <Group justify="center">
        {status.github_oauth && <GithubLoginButton />}
        {status.wechat_login && <WechatLoginButton qrCodeUrl={status.wechat_qrcode} />}
        {status.oidc_enabled && <OidcLoginButton />}
        {status.linuxdo_oauth && <LinuxDoLoginButton />}
      </Group>
      {status.telegram_oauth && (
        <Group justify="center">
          <TelegramLoginWidget botName={status.telegram_bot_name} />
        </Group>
      )}
    </Stack>
  );
}

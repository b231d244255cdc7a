import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { notifySuccess } from '@/lib/notify';
import { authApi, type TelegramAuthData } from '../api/auth.api';
import { GithubLoginButton } from './github-login-button';
import { LinuxDoLoginButton } from './linuxdo-login-button';
import { OidcLoginButton } from './oidc-login-button';
import { TelegramLoginWidget } from './telegram-login-widget';

/** After a bind: the success toast and a fresh copy of the user's own data. */
function useAfterBind() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return async () => {
    notifySuccess(t('auth.bindSuccess'));
    // The personal tab reads the user from the `self` queries (see the setting feature).
    await queryClient.invalidateQueries({ queryKey: ['self'] });
  };
}

/** GitHub: the same round trip as signing in; signed in, the callback answers `bind`. */
export function GithubBindButton() {
  const { t } = useTranslation();
  return <GithubLoginButton label={t('oauth.bind')} />;
}

/** OpenID Connect, bound like GitHub. */
export function OidcBindButton() {
  const { t } = useTranslation();
  return <OidcLoginButton label={t('oauth.bind')} />;
}

/** Linux DO, bound like GitHub. */
export function LinuxDoBindButton() {
  const { t } = useTranslation();
  return <LinuxDoLoginButton label={t('oauth.bind')} />;
}

/** WeChat: the code the official account replies with; an empty code is not sent. */
export function WechatBindButton() {
  const { t } = useTranslation();
  const status = useStatus();
  const [opened, { open, close }] = useDisclosure(false);
  const [code, setCode] = useState('');
  const afterBind = useAfterBind();
  const bind = useMutation({
    mutationFn: authApi.wechatBind,
    onSuccess: async () => {
      close();
      setCode('');
      await afterBind();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) bind.mutate(code.trim());
  };

  return (
    <>
      <Button size="xs" variant="light" onClick={open}>
        {t('oauth.bind')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('oauth.bindWechatTitle')} centered>
        <form onSubmit={submit}>
          <Stack>
            {status.wechat_qrcode && (
              <Image src={status.wechat_qrcode} alt="WeChat QR code" maw={200} mx="auto" />
            )}
            <Text size="sm">{t('auth.wechatHint')}</Text>
            <TextInput
              label={t('auth.verificationCode')}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button type="submit" loading={bind.isPending}>
              {t('oauth.bind')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** Telegram: the login widget, whose signed data binds instead of signing in. */
export function TelegramBindWidget() {
  const status = useStatus();
  const afterBind = useAfterBind();
  const bind = useMutation({ mutationFn: authApi.telegramBind, onSuccess: afterBind });
  const { mutate } = bind;
  return (
    <TelegramLoginWidget
      botName={status.telegram_bot_name}
      onAuth={(data: TelegramAuthData) => mutate(data)}
    />
  );
}

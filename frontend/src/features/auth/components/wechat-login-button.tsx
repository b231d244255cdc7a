import { Button, Image, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBrandWechat } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../api/auth.api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

/** The WeChat dialog: scan the official account's QR code, type the code it replies with. */
export function WechatLoginButton({ qrCodeUrl }: { qrCodeUrl: string }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [code, setCode] = useState('');
  const completeSignIn = useCompleteSignIn();
  const login = useMutation({
    mutationFn: authApi.wechatLogin,
    onSuccess: (user) => {
      close();
      completeSignIn(user, '/');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) login.mutate(code.trim());
  };

  return (
    <>
      <Button variant="default" leftSection={<IconBrandWechat size={18} />} onClick={open}>
        {t('auth.loginWithWechat')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('auth.wechatTitle')} centered>
        <form onSubmit={submit}>
          <Stack>
            {qrCodeUrl && <Image src={qrCodeUrl} alt="WeChat QR code" maw={200} mx="auto" />}
            <Text size="sm">{t('auth.wechatHint')}</Text>
            <TextInput
              label={t('auth.verificationCode')}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button type="submit" loading={login.isPending}>
              {t('auth.login')}
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

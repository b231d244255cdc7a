import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { authApi, type TelegramAuthData } from '../api/auth.api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';

declare global {
  interface Window {
    onTelegramAuth?: (user: TelegramAuthData) => void;
  }
}

/** Telegram's own login button: its script renders an iframe and calls back with signed data. */
export function TelegramLoginWidget({
  botName,
  onAuth,
}: {
  botName: string;
  /** Instead of signing in (the personal tab binds with it). */
  onAuth?: (data: TelegramAuthData) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const completeSignIn = useCompleteSignIn();
  const login = useMutation({
    mutationFn: authApi.telegramLogin,
    onSuccess: (user) => completeSignIn(user, '/'),
  });
  const mutate = onAuth ?? login.mutate;

  useEffect(() => {
    const element = container.current;
    if (!element || !botName) return;
    window.onTelegramAuth = (user) => mutate(user);
    const script = document.createElement('script');
    script.async = true;
    script.src = 'https://telegram.org/js/telegram-widget.js?22';
    script.dataset.telegramLogin = botName;
    script.dataset.size = 'large';
    script.dataset.onauth = 'onTelegramAuth(user)';
    script.dataset.requestAccess = 'write';
    element.appendChild(script);
    return () => {
      element.replaceChildren();
      delete window.onTelegramAuth;
    };
  }, [botName, mutate]);

  return <div ref={container} data-testid="telegram-login" />;
}

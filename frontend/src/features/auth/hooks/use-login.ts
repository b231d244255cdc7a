import { useMutation } from '@tanstack/react-query';
import { authApi, type LoginRequest } from '../api/auth.api';
import { useCompleteSignIn } from './use-complete-sign-in';

/** Password login; an ordinary sign-in lands on /token. */
export function useLogin() {
  const completeSignIn = useCompleteSignIn();
  return useMutation({
    mutationFn: ({ turnstile, ...body }: LoginRequest & { turnstile: string }) =>
      authApi.login(body, turnstile),
    onSuccess: (user) => completeSignIn(user, '/token'),
  });
}

export { dropUserQueries } from './api/session-cache';
export {
  GithubCallbackPage,
  LinuxDoCallbackPage,
  OidcCallbackPage,
} from './components/github-callback-page';
export {
  GithubBindButton,
  LinuxDoBindButton,
  OidcBindButton,
  TelegramBindWidget,
  WechatBindButton,
} from './components/third-party-bind-buttons';
export { LoginPage } from './components/login-page';
export { PasswordResetConfirmPage } from './components/password-reset-confirm-page';
export { PasswordResetPage } from './components/password-reset-page';
export { RegisterPage } from './components/register-page';
export { RequireAuth } from './components/require-auth';
export { useSessionUser } from './hooks/use-session-user';
export { useSignOut } from './hooks/use-sign-out';
export { TurnstileWidget } from './components/turnstile-widget';
export { useTurnstile } from './hooks/use-turnstile';

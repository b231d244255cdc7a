import type { LoginResultDto, RegisterRequest } from '@tollgate/contracts';
import { http, requestEnvelope } from '@/lib/http';

export interface LoginRequest {
  username: string;
  password: string;
}

/** Telegram's login widget hands these fields over; they go to the server as query parameters. */
export type TelegramAuthData = Record<string, string | number>;

export const authApi = {
  login: (body: LoginRequest, turnstile = '') =>
    http.post<LoginResultDto>('/api/user/login', body, { turnstile }),
  register: (body: RegisterRequest, turnstile = '') =>
    http.post<unknown>('/api/user/register', body, { turnstile }),
  logout: () => http.get<unknown>('/api/user/logout'),
  sendVerificationCode: (email: string, turnstile = '') =>
    http.get<unknown>('/api/verification', { email, turnstile }),
  sendResetEmail: (email: string, turnstile = '') =>
    http.get<unknown>('/api/reset_password', { email, turnstile }),
  confirmReset: (body: { email: string; token: string }) =>
    http.post<string>('/api/user/reset', body),
  oauthState: () => http.get<string>('/api/oauth/state'),
  /** Tollgate's OIDC sign-in: the server's authorization URL (state, nonce, PKCE challenge). */
  oidcAuthorize: () => http.get<string>('/api/oauth/oidc/authorize'),
  /** The whole envelope: message 'bind' tells a binding from a sign-in. */
  githubCallback: (code: string, state: string) =>
    requestEnvelope<LoginResultDto>('GET', '/api/oauth/github', { query: { code, state } }),
  wechatLogin: (code: string) => http.get<LoginResultDto>('/api/oauth/wechat', { code }),
  telegramLogin: (data: TelegramAuthData) =>
    http.get<LoginResultDto>('/api/oauth/telegram/login', data),
  /** Bindings of the signed-in user (the personal tab). */
  wechatBind: (code: string) => http.get<unknown>('/api/oauth/wechat/bind', { code }),
  telegramBind: (data: TelegramAuthData) => http.get<unknown>('/api/oauth/telegram/bind', data),
  /** The OIDC and Linux DO callbacks (new-api's routes). */
  oidcCallback: (code: string, state: string) =>
    requestEnvelope<LoginResultDto>('GET', '/api/oauth/oidc', { query: { code, state } }),
  linuxdoCallback: (code: string, state: string) =>
    requestEnvelope<LoginResultDto>('GET', '/api/oauth/linuxdo', { query: { code, state } }),
};

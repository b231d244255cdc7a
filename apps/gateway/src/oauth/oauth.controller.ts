import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role, type LoginResultDto } from '@tollgate/contracts';
import { Authenticator } from '../auth/authenticator';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { SESSION_COOKIE } from '../auth/session-codec';
import { setSessionCookie } from '../auth/session-cookie';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { OptionsCache } from '../options/options.cache';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { BindIdentityCommand } from './commands/bind-identity.handler';
import { SignInWithIdentityCommand } from './commands/sign-in-with-identity.handler';
import type { ExternalProfile } from './external-profile';
import { GitHubClient } from './github.client';
import { LinuxDoClient } from './linuxdo.client';
import { OAUTH_STATE_COOKIE, OAUTH_STATE_TTL_MS, OAuthStateCodec } from './oauth-state';
import { OAuthReplays } from './oauth-replays';
import { OidcClient } from './oidc.client';
import { oidcFlowSecrets } from './oidc-flow-secrets';
import { verifyTelegramLogin } from './telegram-login';
import { WeChatClient } from './wechat.client';

/** Codes of the providers are short; anything longer is not one. */
const MAX_CODE_LENGTH = 512;
/** A WeChat server's code lives three minutes; remembered a little longer. */
const WECHAT_CODE_TTL_MS = 5 * 60_000;
/** A provider's `error_description` echoed to the user is cut to this. */
const MAX_PROVIDER_MESSAGE = 200;

/** The providers whose callback carries a state from GET /api/oauth/state. */
type StateProvider = 'github' | 'oidc' | 'linuxdo';

type QueryParams = Record<string, unknown>;

/** A single string query value, or '' (absent, repeated or too long). */
function param(query: QueryParams, key: string, max = MAX_CODE_LENGTH): string {
  const value = query[key];
  return typeof value === 'string' && value.length <= max ? value.trim() : '';
}

/**
 * Third-party sign-in and binding (one-api's, and new-api's OIDC and Linux DO): GitHub, WeChat,
 * Telegram, OpenID Connect and Linux DO. A signed-in caller binds; anyone else signs in (or
 * registers when allowed).
 */
@Controller('api/oauth')
export class OAuthController {
  private readonly states: OAuthStateCodec;
  /** Keys the state cookies and derives the PKCE verifier and nonce of our OIDC flow. */
  private readonly sessionSecret: string;

  constructor(
    private readonly commands: CommandBus,
    private readonly authenticator: Authenticator,
    private readonly options: OptionsCache,
    private readonly replays: OAuthReplays,
    private readonly github: GitHubClient,
    private readonly wechat: WeChatClient,
    private readonly oidc: OidcClient,
    private readonly linuxdo: LinuxDoClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sessionSecret = config.sessionSecret;
    this.states = new OAuthStateCodec(config.sessionSecret);
  }

  /**
   * A random single-use state for any provider's callback, also set signed in a short-lived cookie;
   * data is the state. `?aff=` carries an invitation code to a registration the callback makes.
   */
  @Get('state')
  async state(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const user = await this.sessionUser(request);
    const aff = param(query, 'aff', 64);
    const { claims, cookie } = this.states.issue(user?.id ?? 0, Date.now(), { aff });
    this.setStateCookie(request, reply, cookie);
    return ok(claims.state);
  }

  @Get('github')
  async githubCallback(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Meta() meta: RequestMeta,
  ) {
    if (!this.options.bool('GitHubOAuthEnabled')) throw new ApiError('oauth.github_disabled');
    const { code, user, aff } = await this.consumeState(query, request, reply, 'github', meta);
    const profile = await this.github.identify(code);
    return this.complete(profile, user, request, reply, meta, aff);
  }

  @Get('wechat')
  async wechatLogin(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Meta() meta: RequestMeta,
  ) {
    const profile = await this.wechatProfile(query, meta);
    return this.signIn(profile, request, reply, meta);
  }

  @Get('wechat/bind')
  @RequireRole(Role.Common)
  async wechatBind(
    @Query() query: QueryParams,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return this.bind(user.id, await this.wechatProfile(query, meta), meta);
  }

  @Get('telegram/login')
  async telegramLogin(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Meta() meta: RequestMeta,
  ) {
    return this.signIn(this.telegramProfile(query), request, reply, meta);
  }

  @Get('telegram/bind')
  @RequireRole(Role.Common)
  async telegramBind(
    @Query() query: QueryParams,
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
  ) {
    return this.bind(user.id, this.telegramProfile(query), meta);
  }

  /**
   * Tollgate's console starts an OIDC sign-in (or binding) here; data is the provider's
   * authorization URL with a state (in the cookie, as GET /api/oauth/state sets it), a nonce and a
   * PKCE challenge. `?aff=` as for the state.
   */
  @Get('oidc/authorize')
  async oidcAuthorize(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!this.options.bool('oidc.enabled')) throw new ApiError('oauth.oidc_disabled');
    const user = await this.sessionUser(request);
    const aff = param(query, 'aff', 64);
    const { claims, cookie } = this.states.issue(user?.id ?? 0, Date.now(), { aff, pkce: true });
    const url = await this.oidc.authorizationUrl(
      claims.state,
      this.oidcRedirectUri(request),
      oidcFlowSecrets(this.sessionSecret, claims.state),
    );
    this.setStateCookie(request, reply, cookie);
    return ok(url);
  }

  /**
   * The OIDC callback of both consoles: new-api's built the authorize URL from /api/status with a
   * state only; Tollgate's got it from GET /api/oauth/oidc/authorize (PKCE and nonce too).
   */
  @Get('oidc')
  async oidcCallback(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Meta() meta: RequestMeta,
  ) {
    if (!this.options.bool('oidc.enabled')) throw new ApiError('oauth.oidc_disabled');
    const { code, user, aff, pkce, state } = await this.consumeState(
      query,
      request,
      reply,
      'oidc',
      meta,
    );
    const flow = pkce ? oidcFlowSecrets(this.sessionSecret, state) : undefined;
    const profile = await this.oidc.identify(code, this.oidcRedirectUri(request), flow);
    return this.complete(profile, user, request, reply, meta, aff);
  }

  /** Linux DO Connect's callback (new-api's controller/linuxdo.go). */
  @Get('linuxdo')
  async linuxdoCallback(
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Meta() meta: RequestMeta,
  ) {
    // The user declined at Linux DO: its explanation, as new-api answers it.
    const error = param(query, 'error', 128);
    if (error) {
      const message = param(query, 'error_description', 2048).slice(0, MAX_PROVIDER_MESSAGE);
      throw new ApiError('oauth.provider_error', { message: message || error });
    }
    if (!this.options.bool('LinuxDOOAuthEnabled')) throw new ApiError('oauth.linuxdo_disabled');
    const { code, user, aff } = await this.consumeState(query, request, reply, 'linuxdo', meta);
    const profile = await this.linuxdo.identify(
      code,
      `${this.serverAddress(request)}/oauth/linuxdo`,
    );
    return this.complete(profile, user, request, reply, meta, aff);
  }

  /**
   * The callback's state must match the cookie's (signed, unexpired, this provider, the same
   * signed-in user as when it was issued) and is then used up, as is the code.
   */
  private async consumeState(
    query: QueryParams,
    request: FastifyRequest,
    reply: FastifyReply,
    provider: StateProvider,
    meta: RequestMeta,
  ): Promise<{
    code: string;
    aff: string;
    user: SignedInUser | null;
    state: string;
    pkce: boolean;
  }> {
    const code = param(query, 'code');
    const state = param(query, 'state', 128);
    const now = Date.now();
    const claims = this.states.verify(request.cookies[OAUTH_STATE_COOKIE], state, now);
    // Used up whatever follows: the cookie goes, and the state is remembered as spent.
    void reply.clearCookie(OAUTH_STATE_COOKIE, { path: '/api/oauth' });
    const user = await this.sessionUser(request);
    if (
      !claims ||
      claims.userId !== (user?.id ?? 0) ||
      !(await this.replays.consume('state', claims.state, claims.expiresAt, meta, now))
    )
      throw new ApiError('oauth.state_invalid');
    if (!code) throw new ApiError('oauth.code_required');
    if (!(await this.replays.consume(provider, code, now + OAUTH_STATE_TTL_MS, meta, now)))
      throw new ApiError('oauth.code_used');
    return { code, aff: claims.aff ?? '', user, state: claims.state, pkce: claims.pkce === true };
  }

  /** The console's origin as the providers know it: ServerAddress, or this request's own. */
  private serverAddress(request: FastifyRequest): string {
    return this.options.get('ServerAddress') || `${request.protocol}://${request.host}`;
  }

  /** Where the OIDC provider sends the browser back: the console's /oauth/oidc page. */
  private oidcRedirectUri(request: FastifyRequest): string {
    return `${this.serverAddress(request)}/oauth/oidc`;
  }

  /** After a verified callback: bind for a signed-in caller (message 'bind'), sign in otherwise. */
  private async complete(
    profile: ExternalProfile,
    user: SignedInUser | null,
    request: FastifyRequest,
    reply: FastifyReply,
    meta: RequestMeta,
    aff = '',
  ) {
    if (!user) return this.signIn(profile, request, reply, meta, aff);
    return this.bind(user.id, profile, {
      ...meta,
      actor: { kind: 'user', id: user.id, role: user.role },
    });
  }

  private async signIn(
    profile: ExternalProfile,
    request: FastifyRequest,
    reply: FastifyReply,
    meta: RequestMeta,
    aff = '',
  ) {
    const { user } = await this.commands.execute(new SignInWithIdentityCommand(profile, meta, aff));
    setSessionCookie(this.authenticator, request, reply, user.id);
    return ok<LoginResultDto>(user);
  }

  private async bind(userId: number, profile: ExternalProfile, meta: RequestMeta) {
    await this.commands.execute(
      new BindIdentityCommand(userId, profile.provider, profile.externalId, meta),
    );
    return ok(undefined, 'bind');
  }

  private async wechatProfile(query: QueryParams, meta: RequestMeta): Promise<ExternalProfile> {
    if (!this.options.bool('WeChatAuthEnabled')) throw new ApiError('oauth.wechat_disabled');
    const code = param(query, 'code', 64);
    if (!code) throw new ApiError('oauth.wechat_code_empty');
    const now = Date.now();
    if (!(await this.replays.consume('wechat', code, now + WECHAT_CODE_TTL_MS, meta, now)))
      throw new ApiError('oauth.code_used');
    return this.wechat.identify(code);
  }

  private telegramProfile(query: QueryParams): ExternalProfile {
    if (!this.options.bool('TelegramOAuthEnabled')) throw new ApiError('oauth.telegram_disabled');
    const user = verifyTelegramLogin(
      query,
      this.options.get('TelegramBotToken'),
      Math.floor(Date.now() / 1000),
    );
    return {
      provider: 'telegram',
      externalId: user.id,
      login: user.username,
      displayName: user.displayName,
    };
  }

  /** The active user of a live session cookie, or null (public routes: anyone may call). */
  private async sessionUser(request: FastifyRequest): Promise<SignedInUser | null> {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return null;
    return this.authenticator
      .authenticate({ sessionCookie: cookie, sessionOnly: true })
      .catch(() => null);
  }

  private setStateCookie(request: FastifyRequest, reply: FastifyReply, cookie: string): void {
    void reply.setCookie(OAUTH_STATE_COOKIE, cookie, {
      path: '/api/oauth',
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from another site.
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: OAUTH_STATE_TTL_MS / 1000,
    });
  }
}

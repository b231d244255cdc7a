import {
  Body,
  Controller,
  Delete,
  Get,
  Inject,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Role, type UserDto } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { Authenticator } from '../auth/authenticator';
import { CurrentSession, CurrentUser, RequireRole } from '../auth/auth.decorators';
import { CriticalRateLimitGuard } from '../auth/critical-rate-limit.guard';
import type { AuthedRequest } from '../auth/authed-request';
import { SESSION_COOKIE, type SessionClaims } from '../auth/session-codec';
import { setSessionCookie } from '../auth/session-cookie';
import { toUserDto } from '../users/user.document';
import { userDocument } from '../users/user-lookup';
import { READ_STORE } from '../infrastructure/injection-tokens';
import type { SignedInUser } from '../auth/signed-in-user';
import { ok } from '../shared/envelope';
import { TurnstileGuard } from '../turnstile/turnstile.guard';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { AffTransferBody, LoginBody, RegisterBody, UpdateSelfBody } from './accounts.dto';
import { DeleteSelfCommand } from './commands/delete-self.handler';
import { IssueAccessTokenCommand } from './commands/issue-access-token.handler';
import { RegisterUserCommand } from './commands/register-user.handler';
import { BudgetUsage } from '../billing/budget-usage';
import { SignOutCommand } from './commands/sign-out.handler';
import { TransferAffQuotaCommand } from './commands/transfer-aff-quota.handler';
import { UpdateSelfCommand } from './commands/update-self.handler';
import { LoginQuery } from './queries/login.handler';
import { GroupChoicesQuery, UserModelsQuery } from './queries/user-groups.handler';

/** Sign-in and the self-service account endpoints. */
@Controller('api/user')
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly authenticator: Authenticator,
    private readonly budgets: BudgetUsage,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  @Post('register')
  @UseGuards(CriticalRateLimitGuard, TurnstileGuard)
  async register(@Body() body: RegisterBody, @Meta() meta: RequestMeta) {
    await this.commands.execute(new RegisterUserCommand(body, meta));
    return ok(undefined, '');
  }

  @Post('login')
  @UseGuards(CriticalRateLimitGuard, TurnstileGuard)
  async login(
    @Body() body: LoginBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.queries.execute(
      new LoginQuery(body.username ?? '', body.password ?? ''),
    );
    this.setSession(request, reply, result.id);
    return ok(result);
  }

  /**
   * Ends this session on the server (an event), then clears the cookie. A session that is over
   * already (logged out, revoked, expired) appends nothing: replaying its cookie writes no events.
   */
  @Get('logout')
  async logout(
    @Req() request: AuthedRequest,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const session = await this.authenticator.liveSession(request.cookies[SESSION_COOKIE]);
    if (session) await this.commands.execute(new SignOutCommand(session, meta));
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok();
  }

  @Get('self')
  @RequireRole(Role.Common)
  async self(@CurrentUser() user: SignedInUser) {
    // With a budget, its use of the current period (docs/budgets.md).
    const document = await userDocument(this.readStore, user.id);
    const [dto] = this.budgets.fill('user', [toUserDto(document)]);
    return ok<UserDto>(dto);
  }

  @Put('self')
  @RequireRole(Role.Common)
  async updateSelf(
    @CurrentUser() user: SignedInUser,
    @CurrentSession() session: SessionClaims | null,
    @Body() body: UpdateSelfBody,
    @Meta() meta: RequestMeta,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { passwordChanged } = await this.commands.execute(
      new UpdateSelfCommand(user, body, meta, session),
    );
    // A password change voids every older session; keep this one signed in with a fresh cookie.
    if (passwordChanged) this.setSession(request, reply, user.id);
    return ok();
  }

  @Delete('self')
  @RequireRole(Role.Common)
  async deleteSelf(
    @CurrentUser() user: SignedInUser,
    @Meta() meta: RequestMeta,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.commands.execute(new DeleteSelfCommand(user.id, meta));
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return ok();
  }

  @Get('token')
  @RequireRole(Role.Common)
  async accessToken(@CurrentUser() user: SignedInUser, @Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new IssueAccessTokenCommand(user.id, meta)));
  }

  @Get('aff')
  @RequireRole(Role.Common)
  async affCode(@CurrentUser() user: SignedInUser) {
    return ok((await userDocument(this.readStore, user.id)).aff_code);
  }

  @Post('aff_transfer')
  @RequireRole(Role.Common)
  async affTransfer(
    @CurrentUser() user: SignedInUser,
    @Body() body: AffTransferBody,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(new TransferAffQuotaCommand(user.id, body.quota, meta));
    return ok();
  }

  /** The model names the user can call (a list, as new-api answers). */
  @Get('models')
  @RequireRole(Role.Common)
  async models(@CurrentUser() user: SignedInUser) {
    return ok(await this.queries.execute(new UserModelsQuery(user.group)));
  }

  /** group → {ratio, desc} the user may pick. */
  @Get('self/groups')
  @RequireRole(Role.Common)
  async groups(@CurrentUser() user: SignedInUser) {
    return ok(await this.queries.execute(new GroupChoicesQuery(user.group)));
  }

  /**
   * Public, as in new-api: the groups anyone may pick (no session means no own group). A static
   * route, so GET /api/user/:id (administrators) never sees it.
   */
  @Get('groups')
  async publicGroups() {
    return ok(await this.queries.execute(new GroupChoicesQuery('')));
  }

  private setSession(request: FastifyRequest, reply: FastifyReply, userId: number): void {
    setSessionCookie(this.authenticator, request, reply, userId);
  }
}

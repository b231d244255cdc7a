import { Body, Controller, Get, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import { CriticalRateLimitGuard } from '../auth/critical-rate-limit.guard';
import type { SignedInUser } from '../auth/signed-in-user';
import { ok } from '../shared/envelope';
import { Meta } from '../shared/request-meta.decorator';
import type { RequestMeta } from '../shared/request-meta';
import { TurnstileGuard } from '../turnstile/turnstile.guard';
import { BindEmailCommand } from './commands/bind-email.handler';
import { ResetPasswordCommand } from './commands/reset-password.handler';
import { SendPasswordResetCommand } from './commands/send-password-reset.handler';
import { SendVerificationCodeCommand } from './commands/send-verification-code.handler';
import { EmailBindQuery, EmailQuery, ResetPasswordBody } from './mail.dto';

/** The mail endpoints (codes, password reset) and the personal tab's email bind. */
@Controller('api')
export class MailController {
  constructor(private readonly commands: CommandBus) {}

  @Get('verification')
  @UseGuards(CriticalRateLimitGuard, TurnstileGuard)
  async verification(@Query() query: EmailQuery, @Meta() meta: RequestMeta) {
    await this.commands.execute(new SendVerificationCodeCommand(query.email, meta));
    return ok();
  }

  @Get('reset_password')
  @UseGuards(CriticalRateLimitGuard, TurnstileGuard)
  async resetMail(@Query() query: EmailQuery, @Meta() meta: RequestMeta) {
    await this.commands.execute(new SendPasswordResetCommand(query.email, meta));
    return ok();
  }

  @Post('user/reset')
  @UseGuards(CriticalRateLimitGuard)
  async reset(@Body() body: ResetPasswordBody, @Meta() meta: RequestMeta) {
    return ok(await this.commands.execute(new ResetPasswordCommand(body.email, body.token, meta)));
  }

  @Get('oauth/email/bind')
  @RequireRole(Role.Common)
  async bind(
    @CurrentUser() user: SignedInUser,
    @Query() query: EmailBindQuery,
    @Meta() meta: RequestMeta,
  ) {
    await this.commands.execute(new BindEmailCommand(user, query.email, query.code, meta));
    return ok();
  }
}

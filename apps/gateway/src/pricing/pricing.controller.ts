import { Controller, Get, Req } from '@nestjs/common';
import { USER_ID_HEADER, type PricingResponse } from '@tollgate/contracts';
import type { AuthedRequest } from '../auth/authed-request';
import { Authenticator } from '../auth/authenticator';
import { SESSION_COOKIE } from '../auth/session-codec';
import { PricingView } from './pricing.view';

/**
 * GET /api/pricing, public like new-api's (TryUserAuth): a signed-in caller sees the models of their
 * usable groups, anyone else those of the public ones. Never a channel's name, key or address.
 */
@Controller('api')
export class PricingController {
  constructor(
    private readonly view: PricingView,
    private readonly authenticator: Authenticator,
  ) {}

  @Get('pricing')
  async pricing(@Req() request: AuthedRequest): Promise<PricingResponse> {
    return { success: true, message: '', ...this.view.forGroup(await this.ownGroup(request)) };
  }

  /** The caller's group, or '' when no valid session (or access token) comes with the call. */
  private async ownGroup(request: AuthedRequest): Promise<string> {
    const cookie = request.cookies[SESSION_COOKIE];
    const authorization = request.headers.authorization;
    if (!cookie && !authorization) return '';
    const header = request.headers[USER_ID_HEADER.toLowerCase()];
    try {
      const caller = await this.authenticator.identify({
        sessionCookie: cookie,
        authorization,
        userHeader: Array.isArray(header) ? header[0] : header,
        // A session alone is enough here (new-api's TryUserAuth); a token needs its header.
        sessionOnly: !authorization,
      });
      return caller.user.group;
    } catch {
      return '';
    }
  }
}

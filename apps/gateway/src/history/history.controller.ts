import { Controller, Get, Param, Query as QueryParams } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  isAdmin,
  isRoot,
  Role,
  type TokenQuotaAtDto,
  type UserQuotaAtDto,
} from '@tollgate/contracts';
import type { Filter } from '@tollgate/read-store';
import { CurrentUser, RequireRole } from '../auth/auth.decorators';
import type { SignedInUser } from '../auth/signed-in-user';
import { ApiError } from '../shared/api-error';
import { ok } from '../shared/envelope';
import { GetUserQuery } from '../users/queries/get-user.handler';
import { BalanceAt } from './balance-at';
import { HistoryReader, withTimeRange, type HistoryViewer } from './history-reader';
import { ActorHistoryParams, HistoryParams, QuotaAtParams } from './history.dto';
import { LedgerCheck } from './ledger-check';

/**
 * A positive decimal id. Read as text (a `string` parameter is left alone by the global
 * ValidationPipe, which would turn "0x10" into 16); Nest's ParseIntPipe lets -1 and 20-digit
 * numbers through.
 */
function positiveId(text: string): number {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new ApiError('common.invalid_params');
  return Number(text);
}
const IdParam = () => Param('id');
const ADMIN: HistoryViewer = { kind: 'admin' };

/**
 * History of every change (docs/history.md), from the event log: per user, token, channel,
 * redemption code and the options; who did what; balances at an instant; the ledger check.
 * Static `self` routes come first (they must not be read as an `:id`).
 */
@Controller('api')
export class HistoryController {
  constructor(
    private readonly history: HistoryReader,
    private readonly balances: BalanceAt,
    private readonly ledger: LedgerCheck,
    private readonly queries: QueryBus,
  ) {}

  @Get('user/self/history')
  @RequireRole(Role.Common)
  async selfHistory(@QueryParams() params: HistoryParams, @CurrentUser() user: SignedInUser) {
    const filter = withTimeRange({ entity: 'user', entity_id: user.id }, params);
    return ok(await this.history.page(filter, params, { kind: 'self', userId: user.id }));
  }

  @Get('user/self/quota_at')
  @RequireRole(Role.Common)
  async selfQuotaAt(@QueryParams() params: QuotaAtParams, @CurrentUser() user: SignedInUser) {
    return ok(await this.userQuotaAt(user.id, params, { kind: 'self', userId: user.id }));
  }

  @Get('user/:id/history')
  @RequireRole(Role.Admin)
  async userHistory(
    @IdParam() rawId: string,
    @QueryParams() params: HistoryParams,
    @CurrentUser() viewer: SignedInUser,
  ) {
    const id = positiveId(rawId);
    await this.visibleUser(id, viewer);
    const filter = withTimeRange({ entity: 'user', entity_id: id }, params);
    return ok(await this.history.page(filter, params, ADMIN));
  }

  @Get('user/:id/quota_at')
  @RequireRole(Role.Admin)
  async userQuotaAtRoute(
    @IdParam() rawId: string,
    @QueryParams() params: QuotaAtParams,
    @CurrentUser() viewer: SignedInUser,
  ) {
    const id = positiveId(rawId);
    await this.visibleUser(id, viewer);
    return ok(await this.userQuotaAt(id, params, ADMIN));
  }

  @Get('token/:id/history')
  @RequireRole(Role.Common)
  async tokenHistory(
    @IdParam() rawId: string,
    @QueryParams() params: HistoryParams,
    @CurrentUser() viewer: SignedInUser,
  ) {
    const id = positiveId(rawId);
    const scope = await this.tokenViewer(id, viewer);
    const filter = withTimeRange({ entity: 'token', entity_id: id }, params);
    return ok(await this.history.page(filter, params, scope));
  }

  @Get('token/:id/quota_at')
  @RequireRole(Role.Common)
  async tokenQuotaAt(
    @IdParam() rawId: string,
    @QueryParams() params: QuotaAtParams,
    @CurrentUser() viewer: SignedInUser,
  ) {
    const id = positiveId(rawId);
    await this.tokenViewer(id, viewer);
    const at = params.timestamp;
    const begins = await this.history.importedAt('token', id);
    if (begins !== null && at < begins)
      return ok({
        timestamp: at,
        existed: true,
        history_begins_at: begins,
        remain_quota: null,
        used_quota: null,
        unlimited_quota: null,
      } satisfies TokenQuotaAtDto);
    return ok({ ...(await this.balances.token(id, at)), history_begins_at: begins });
  }

  @Get('channel/:id/history')
  @RequireRole(Role.Admin)
  async channelHistory(@IdParam() rawId: string, @QueryParams() params: HistoryParams) {
    const id = positiveId(rawId);
    const filter = withTimeRange({ entity: 'channel', entity_id: id }, params);
    return ok(await this.history.page(filter, params, ADMIN));
  }

  @Get('redemption/:id/history')
  @RequireRole(Role.Admin)
  async redemptionHistory(@IdParam() rawId: string, @QueryParams() params: HistoryParams) {
    const id = positiveId(rawId);
    const filter = withTimeRange({ entity: 'redemption', entity_id: id }, params);
    return ok(await this.history.page(filter, params, ADMIN));
  }

  /** Root only, like the options themselves. */
  @Get('option/history')
  @RequireRole(Role.Root)
  async optionHistory(@QueryParams() params: HistoryParams) {
    const filter = withTimeRange({ entity: 'option' }, params);
    return ok(await this.history.page(filter, params, ADMIN));
  }

  /** Who did what: every change one user made in a time range (options only for root). */
  @Get('history')
  @RequireRole(Role.Admin)
  async byActor(@QueryParams() params: ActorHistoryParams, @CurrentUser() viewer: SignedInUser) {
    const filter: Filter = { actor_id: params.actor_id };
    if (!isRoot(viewer.role)) filter['entity'] = { $ne: 'option' };
    return ok(await this.history.page(withTimeRange(filter, params), params, ADMIN));
  }

  /** The ledger check against the live read models and balance book (docs/history.md). */
  @Get('ledger/verify')
  @RequireRole(Role.Root)
  async verify() {
    return ok(await this.ledger.run());
  }

  private async userQuotaAt(
    id: number,
    params: QuotaAtParams,
    viewer: HistoryViewer,
  ): Promise<UserQuotaAtDto> {
    const at = params.timestamp;
    const [begins, balance, changes] = await Promise.all([
      this.history.importedAt('user', id),
      this.balances.user(id, at),
      this.history.page(
        withTimeRange({ entity: 'user', entity_id: id, quota_delta: { $ne: 0 } }, params, at),
        params,
        viewer,
      ),
    ]);
    // Before an import the source's figures are not known: say where the history begins.
    if (begins !== null && at < begins)
      return {
        timestamp: at,
        history_begins_at: begins,
        quota: null,
        used_quota: null,
        request_count: null,
        credited: null,
        changes,
      };
    return { timestamp: at, history_begins_at: begins, ...balance, changes };
  }

  /** Who may read a user: the rule of GET /api/user/:id (its errors included). */
  private async visibleUser(id: number, viewer: SignedInUser): Promise<void> {
    await this.queries.execute(new GetUserQuery(id, viewer));
  }

  /** Administrators read any token's history; a user only their own tokens' (as "self"). */
  private async tokenViewer(id: number, viewer: SignedInUser): Promise<HistoryViewer> {
    const first = await this.history.firstRow('token', id);
    if (!first || (!isAdmin(viewer.role) && first.owner_id !== viewer.id))
      throw new ApiError('token.not_found');
    return isAdmin(viewer.role) ? ADMIN : { kind: 'self', userId: viewer.id };
  }
}

import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, redemptionDecider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { derivedId } from '../../infrastructure/derived-id';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { sha256Hex } from '../../infrastructure/secret-box';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { REDEMPTIONS, type RedemptionDocument } from '../redemption.document';
import { appendOwedCredit } from '../../billing/owed-credits';
import { redemptionReference } from '../redemption-credit';

/** POST /api/user/topup: redeem a code for the signed-in user; answers the quota added. */
export class RedeemCodeCommand extends Command<number> {
  constructor(
    readonly userId: number,
    readonly key: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * The code's stream decides (its expected revision): of any number of concurrent redeems exactly
 * one appends RedemptionRedeemed. The credit follows on the redeemer's billing stream, named after
 * the code (reference) and caused by the redemption event; its command id is derived from the code,
 * so a code can never be credited twice, even by a retry. A crash between the two appends is
 * mended at the next start (PayUnpaidRedemptions).
 */
@CommandHandler(RedeemCodeCommand)
export class RedeemCodeHandler implements ICommandHandler<RedeemCodeCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ userId, key, meta }: RedeemCodeCommand): Promise<number> {
    const trimmed = key.trim();
    if (!trimmed) throw new DomainError('redemption.key_required');
    const doc = await this.readStore
      .collection<RedemptionDocument>(REDEMPTIONS)
      .findOne({ key_hash: sha256Hex(trimmed) });
    if (!doc) throw new DomainError('redemption.invalid_code');
    const redeemId = randomUUID();
    const redeemed = await this.store.execute(
      `redemption-${doc.id}`,
      redemptionDecider,
      { type: 'RedeemCode', userId },
      meta,
      { commandId: redeemId },
    );
    const event = redeemed.events[0];
    if (!event || event.type !== 'RedemptionRedeemed')
      throw new DomainError('redemption.invalid_code');
    const credited = await appendOwedCredit(
      this.store,
      'redemption',
      {
        reference: redemptionReference(doc.id),
        userId,
        quota: event.data.quota,
        causeEventId: derivedId(redeemId, 0),
      },
      meta,
    );
    await this.readYourWrites.waitFor(credited.position ?? redeemed.position);
    return event.data.quota;
  }
}

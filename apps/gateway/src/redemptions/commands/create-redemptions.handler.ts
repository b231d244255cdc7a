import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MAX_REDEMPTION_BATCH, REDEMPTION_KEY_LENGTH } from '@tollgate/contracts';
import {
  DomainError,
  assertRedemptionFields,
  redemptionDecider,
  sequenceDecider,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { randomAlphanumeric } from '../../infrastructure/random-text';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { SecretBox, sha256Hex } from '../../infrastructure/secret-box';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

export class CreateRedemptionsCommand extends Command<string[]> {
  constructor(
    readonly adminId: number,
    readonly name: string,
    readonly quota: number,
    readonly count: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** `count` codes (ids from seq-redemption); the answer is the list of keys, shown once here. */
@CommandHandler(CreateRedemptionsCommand)
export class CreateRedemptionsHandler implements ICommandHandler<CreateRedemptionsCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly secretBox: SecretBox,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ adminId, name, quota, count, meta }: CreateRedemptionsCommand) {
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_REDEMPTION_BATCH)
      throw new DomainError('redemption.count_invalid');
    // Validate before spending an id, so bad input creates nothing.
    assertRedemptionFields(name, quota);
    const allocated = await this.store.execute(
      'seq-redemption',
      sequenceDecider,
      { type: 'AllocateId', count },
      meta,
    );
    const keys: string[] = [];
    let last: Position | null = null;
    for (const { data } of allocated.events) {
      const key = randomAlphanumeric(REDEMPTION_KEY_LENGTH);
      const created = await this.store.execute(
        `redemption-${data.id}`,
        redemptionDecider,
        {
          type: 'CreateRedemption',
          redemptionId: data.id,
          createdBy: adminId,
          name,
          quota,
          sealedKey: this.secretBox.seal(key),
          keyHash: sha256Hex(key),
        },
        meta,
      );
      keys.push(key);
      last = created.position ?? last;
    }
    await this.readYourWrites.waitFor(last);
    return keys;
  }
}

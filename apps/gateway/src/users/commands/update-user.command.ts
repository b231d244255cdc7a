import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  assertExisting,
  assertMayManage,
  assertPasswordRules,
  assertValidDisplayName,
  assertValidUsername,
  billingDecider,
  normalizeUsername,
  uniqueClaimDecider,
  userDecider,
  type ActorRef,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { EventSourcedStore } from '../../infrastructure/event-sourced-store';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { OptionsCache } from '../../options/options.cache';
import type { RequestMeta } from '../../shared/request-meta';
import type { UpdateUserBody } from '../users.dto';

export class UpdateUserCommand extends Command<void> {
  constructor(
    readonly body: UpdateUserBody,
    readonly actor: ActorRef,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * An administrator edits another user. Everything is validated before the first append so a bad
 * field changes nothing; a quota change is a QuotaAdjusted on the user's billing stream with the
 * admin as actor.
 */
@CommandHandler(UpdateUserCommand)
export class UpdateUserHandler implements ICommandHandler<UpdateUserCommand> {
  constructor(
    private readonly store: EventSourcedStore,
    private readonly hasher: PasswordHasher,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ body, actor, meta }: UpdateUserCommand) {
    const stream = `user-${body.id}`;
    const { state } = await this.store.load(stream, userDecider);
    assertExisting(state);
    assertMayManage(actor, state);
    const rename =
      body.username !== undefined && body.username !== state.username ? body.username : undefined;
    if (rename !== undefined) assertValidUsername(rename);
    if (body.display_name !== undefined) assertValidDisplayName(body.display_name);
    const password = body.password ? body.password : undefined;
    if (password !== undefined) assertPasswordRules(password);
    const group = body.group?.trim();
    if (group && !(group in this.options.json<Record<string, number>>('GroupRatio', {})))
      throw new DomainError('user.group_unknown');

    const positions: Position[] = [];
    const track = (p: Position | null) => p && positions.push(p);
    if (rename !== undefined)
      await this.rename(body.id, state.username, rename, actor, meta, track);
    const profile = await this.store.execute(
      stream,
      userDecider,
      { type: 'UpdateProfile', displayName: body.display_name, remark: body.remark, actor },
      meta,
    );
    track(profile.position);
    if (password !== undefined) {
      const passwordHash = await this.hasher.hash(password);
      track(
        (
          await this.store.execute(
            stream,
            userDecider,
            { type: 'ChangePassword', passwordHash, reason: 'admin', actor },
            meta,
          )
        ).position,
      );
    }
    if (group)
      track(
        (await this.store.execute(stream, userDecider, { type: 'ChangeGroup', group, actor }, meta))
          .position,
      );
    if (body.quota !== undefined) {
      const adjusted = await this.store.execute(
        `billing-${body.id}`,
        billingDecider,
        { type: 'AdjustQuota', userId: body.id, to: body.quota, note: '' },
        meta,
      );
      track(adjusted.position);
    }
    await this.readYourWrites.waitFor(positions.at(-1));
  }

  /** Claim the new name's guard first, then rename, then free the old name. */
  private async rename(
    userId: number,
    from: string,
    to: string,
    actor: ActorRef,
    meta: RequestMeta,
    track: (p: Position | null) => void,
  ): Promise<void> {
    const next = normalizeUsername(to);
    const previous = normalizeUsername(from);
    track(
      (
        await this.store.execute(
          `username-${next}`,
          uniqueClaimDecider,
          {
            type: 'ClaimUniqueValue',
            value: next,
            ownerId: userId,
            takenCode: 'user.username_taken',
          },
          meta,
        )
      ).position,
    );
    track(
      (
        await this.store.execute(
          `user-${userId}`,
          userDecider,
          { type: 'RenameUser', username: to, actor },
          meta,
        )
      ).position,
    );
    if (next !== previous)
      track(
        (
          await this.store.execute(
            `username-${previous}`,
            uniqueClaimDecider,
            { type: 'ReleaseUniqueValue', value: previous, ownerId: userId },
            meta,
          )
        ).position,
      );
  }
}

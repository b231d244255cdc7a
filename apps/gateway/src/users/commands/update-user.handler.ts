import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  assertBudget,
  assertExisting,
  assertMayManage,
  assertPasswordRules,
  assertValidDisplayName,
  assertValidUsername,
  billingDecider,
  canonicalDisplayName,
  canonicalUsername,
  normalizeUsername,
  userDecider,
  type ActorRef,
  type BillingCommand,
  type UserState,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { UniqueClaims } from '../../accounts/unique-claims';
import { BalanceBook } from '../../billing/balance-book';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { OptionsCache } from '../../options/options.cache';
import { crashPoint } from '../../shared/crash-point';
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
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly options: OptionsCache,
    private readonly claims: UniqueClaims,
    private readonly readYourWrites: ReadYourWrites,
    private readonly book: BalanceBook,
  ) {}

  async execute({ body, actor, meta }: UpdateUserCommand) {
    const stream = `user-${body.id}`;
    const { state } = await this.store.load(stream, userDecider);
    const edit = this.checkedEdit(body, actor, state);
    // Hashed before the first append too: a busy hashing pool must not leave a rename behind.
    const passwordHash =
      edit.password === undefined ? undefined : await this.hasher.hash(edit.password);

    // Appends run one after another, so the last one written is the one to wait for.
    let last: Position | null = null;
    if (edit.rename !== undefined)
      last = (await this.rename(body.id, state.username, edit.rename, actor, meta)) ?? last;
    const edited = await this.store.execute(
      stream,
      userDecider,
      {
        type: 'EditUser',
        displayName: edit.displayName,
        remark: body.remark,
        passwordHash,
        passwordReason: 'admin',
        group: edit.group || undefined,
        actor,
      },
      meta,
    );
    last = edited.position ?? last;
    if (edit.adjust) {
      const billing = `billing-${body.id}`;
      const adjusted = await this.store.execute(billing, billingDecider, edit.adjust, meta);
      last = adjusted.position ?? last;
    }
    if (edit.budget) {
      // A BudgetSet with the admin as actor (meta), naming the budget it replaced.
      const set = await this.store.execute(
        `billing-${body.id}`,
        billingDecider,
        { type: 'SetBudget', userId: body.id, ...edit.budget },
        meta,
      );
      last = set.position ?? last;
    }
    await this.readYourWrites.waitFor(last);
  }

  /** Every check of the edit, before anything is appended: a bad field changes nothing. */
  private checkedEdit(body: UpdateUserBody, actor: ActorRef, state: UserState): CheckedEdit {
    assertExisting(state);
    assertMayManage(actor, state);
    const username = body.username === undefined ? undefined : canonicalUsername(body.username);
    const rename = username !== undefined && username !== state.username ? username : undefined;
    if (rename !== undefined) assertValidUsername(rename);
    const displayName =
      body.display_name === undefined ? undefined : canonicalDisplayName(body.display_name);
    if (displayName !== undefined) assertValidDisplayName(displayName);
    const password = body.password ? body.password : undefined;
    // One's own password changes only where the current one is confirmed (and rate limited).
    if (password !== undefined && body.id === actor.id)
      throw new DomainError('user.own_password_via_self');
    if (password !== undefined) assertPasswordRules(password);
    const group = body.group?.trim();
    if (group && !(group in this.options.json<Record<string, number>>('GroupRatio', {})))
      throw new DomainError('user.group_unknown');
    const adjust = this.quotaAdjustment(body);
    // Decided now, with the other checks (it reads no state): a moved balance refuses the whole
    // edit, not only its quota after the rename and profile were written.
    if (adjust) billingDecider.decide(adjust, billingDecider.initialState, { now: new Date() });
    // The budget (docs/budgets.md): both fields or neither; one alone pairs with none (0 / '').
    const budget =
      body.period_quota === undefined && body.period === undefined
        ? undefined
        : assertBudget(body.period_quota ?? 0, body.period ?? '');
    return { rename, displayName, password, group, adjust, budget };
  }

  private quotaAdjustment(body: UpdateUserBody): AdjustQuota | undefined {
    if (body.quota === undefined) return undefined;
    return {
      type: 'AdjustQuota',
      userId: body.id,
      to: body.quota,
      // The live balance (charges on the usage streams included); an edit made on a balance
      // that moved since the console showed it is refused instead of erasing those charges.
      current: this.book.settledBalance(body.id) ?? 0,
      expected: body.expected_quota,
      note: '',
    };
  }

  /** Claims the new name first, so a taken name changes nothing; frees the old one last. */
  private async rename(
    userId: number,
    current: string,
    rename: string,
    actor: ActorRef,
    meta: RequestMeta,
  ): Promise<Position | null> {
    const [next, previous] = [normalizeUsername(rename), normalizeUsername(current)];
    await this.claims.claim('username', next, userId, 'user.username_taken', meta);
    crashPoint('rename:after-claim');
    const renamed = await this.store.execute(
      `user-${userId}`,
      userDecider,
      { type: 'RenameUser', username: rename, actor },
      meta,
    );
    crashPoint('rename:after-rename');
    // A crash before this release leaves the old name to start-up recovery.
    if (next !== previous) await this.claims.release('username', previous, userId, meta);
    return renamed.position;
  }
}

type AdjustQuota = Extract<BillingCommand, { type: 'AdjustQuota' }>;

/** An edit that passed every check: what each append will carry. */
interface CheckedEdit {
  readonly rename: string | undefined;
  readonly displayName: string | undefined;
  readonly password: string | undefined;
  readonly group: string | undefined;
  readonly adjust: AdjustQuota | undefined;
  readonly budget: ReturnType<typeof assertBudget> | undefined;
}

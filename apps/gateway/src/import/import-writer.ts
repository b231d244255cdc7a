import { randomUUID } from 'node:crypto';
import {
  billingDecider,
  DomainError,
  identityGuardValue,
  IDENTITY_GUARD_KIND,
  normalizeEmail,
  normalizeUsername,
  sequenceDecider,
  SYSTEM_ACTOR,
  tokenDecider,
  uniqueClaimDecider,
  userDecider,
  type Decider,
  type DomainEvent,
  type ExternalProvider,
  type ImportSource,
} from '@tollgate/domain';
import type { EventStore, RecordedEvent } from '@tollgate/event-store';
import { derivedId } from '../infrastructure/derived-id';
import { SecretBox, sha256Hex } from '../infrastructure/secret-box';
import { SCHEMA_VERSION } from '../infrastructure/stream-commands';
import { crashPoint } from '../shared/crash-point';
import { expectedAfter, ImportAppends, importAppendKey } from './import-appends';
import type { BalanceFacts, MappedUser, TokenFacts } from './import-mapping';
import type { SourceProject } from './source-database';

/** The source row an appended event comes from: its id derives from it (and the stream). */
export interface ImportOrigin {
  readonly table: string;
  readonly rowId: number;
}

/** 'imported', 'already' (an earlier run), or why the row is skipped. */
export type ImportOutcome = string;

/**
 * Appends through the deciders, with import metadata and event ids derived from (source, table,
 * row id, stream): a resumed run re-decides every step of a row and appends only what is missing,
 * and an event an earlier run appended is never appended twice. Every append of decided events
 * carries an idempotency key (the source and its first event id), so an engine that deduplicates
 * only recent ids refuses it too, however far the stream moved on since.
 */
export class ImportWriter {
  private readonly runId = randomUUID();
  private readonly appends: ImportAppends;

  constructor(
    private readonly store: EventStore,
    /** Seals secrets (token keys, channel keys) as the gateway does. */
    readonly box: SecretBox,
    readonly project: SourceProject,
    readonly fingerprint: string,
  ) {
    this.appends = new ImportAppends(store, fingerprint);
  }

  /**
   * One users row: the unique claims (username, aff code, verified email, external ids), then
   * UserImported on user-<id>, then BalanceImported on billing-<id>. Each step is idempotent (a
   * claim by the same owner, ImportUser and ImportBalance on an imported stream decide nothing), so
   * a row an earlier run left half done (killed between two appends) is completed here.
   */
  async user(mapped: MappedUser): Promise<ImportOutcome> {
    const { accessToken, ...facts } = mapped.user;
    const rowId = facts.userId;
    const origin = { table: 'users', rowId };
    const existing = await this.load(`user-${rowId}`, userDecider);
    if (existing.state.imported) {
      // Taken over by an earlier run, which may have died before the balance was written.
      await this.balance(rowId, mapped.balance, facts.source, origin);
      if (!facts.deleted) await this.notifications(mapped, origin);
      return 'already';
    }
    let user = { ...facts };
    if (!user.deleted) {
      const name = normalizeUsername(user.username);
      if (!(await this.claim(`username-${name}`, name, rowId, origin)))
        return `username ${user.username} is taken in DATA_DIR`;
      if (
        user.affCode &&
        !(await this.claim(`affcode-${user.affCode}`, user.affCode, rowId, origin))
      ) {
        mapped.items.push({
          ...origin,
          action: 'dropped',
          field: 'aff_code',
          reason: "the same aff code is another user's",
        });
        user = { ...user, affCode: '' };
      }
      const email = normalizeEmail(user.email);
      if (user.emailVerified && !(await this.claim(`email-${email}`, email, rowId, origin))) {
        mapped.items.push({
          ...origin,
          action: 'changed',
          field: 'email',
          reason: 'another user has the same email: kept unverified',
        });
        user = { ...user, emailVerified: false };
      }
      const identities: Partial<Record<ExternalProvider, string>> = {};
      for (const [provider, id] of Object.entries(user.identities) as Array<
        [ExternalProvider, string]
      >) {
        const value = identityGuardValue(id);
        if (await this.claim(`${IDENTITY_GUARD_KIND[provider]}-${value}`, value, rowId, origin))
          identities[provider] = id;
        else
          mapped.items.push({
            ...origin,
            action: 'dropped',
            field: `${provider}_id`,
            reason: 'bound to another user',
          });
      }
      user = { ...user, identities };
    }
    await this.execute(
      `user-${rowId}`,
      userDecider,
      {
        type: 'ImportUser',
        user: {
          ...user,
          accessTokenHash: accessToken && !user.deleted ? sha256Hex(accessToken) : '',
        },
      },
      origin,
    );
    crashPoint('import:after-user');
    await this.balance(rowId, mapped.balance, user.source, origin);
    if (!user.deleted) await this.notifications(mapped, origin);
    return 'imported';
  }

  /**
   * new-api's `setting`: the notification settings through the console's command (the decider
   * validates them as it validates a save; the same settings again decide nothing), the webhook
   * secret sealed as the console seals it. Its own derived id (step `setting`), so it is appended
   * at most once per source row: a later run neither repeats it nor overwrites what the user
   * changed since. A refusal of the decider drops the settings, reported.
   */
  private async notifications(mapped: MappedUser, origin: ImportOrigin): Promise<void> {
    const settings = mapped.notifications;
    if (!settings) return;
    const { webhookSecret, ...rest } = settings;
    try {
      await this.execute(
        `user-${origin.rowId}`,
        userDecider,
        {
          type: 'ChangeNotificationSettings',
          ...rest,
          sealedWebhookSecret: webhookSecret ? this.box.seal(webhookSecret) : null,
          keepWebhookSecret: false,
          acceptAdminAlerts: false,
        },
        origin,
        'setting',
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      mapped.items.push({
        ...origin,
        action: 'dropped',
        field: 'setting',
        reason: `notification settings refused: ${error.code}`,
      });
    }
  }

  /** The opening balance on billing-<id>, once (ImportBalance decides nothing the second time). */
  private async balance(
    userId: number,
    balance: BalanceFacts,
    source: ImportSource,
    origin: ImportOrigin,
  ): Promise<void> {
    await this.execute(
      `billing-${userId}`,
      billingDecider,
      { type: 'ImportBalance', balance: { userId, ...balance, source } },
      origin,
    );
  }

  /**
   * One tokens row: a single TokenImported on token-<id> (nothing else to complete on a resume).
   * 'already' when an earlier run imported it; a token-<id> holding another token is skipped.
   */
  async token(facts: TokenFacts): Promise<ImportOutcome> {
    const { key, ...rest } = facts;
    const stream = `token-${facts.tokenId}`;
    const existing = await this.load(stream, tokenDecider);
    if (existing.state.exists)
      return existing.state.tokenId === facts.tokenId ? 'already' : 'token id taken';
    await this.execute(
      stream,
      tokenDecider,
      {
        type: 'ImportToken',
        token: {
          ...rest,
          sealedKey: this.box.seal(key),
          keyHash: sha256Hex(key),
          rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
        },
      },
      { table: 'tokens', rowId: facts.tokenId },
    );
    return 'imported';
  }

  /**
   * Claims a unique value (username, aff code, redemption key, …) for `ownerId`: true when it is
   * (or already was) this owner's, false when another owner holds it.
   */
  async claim(
    stream: string,
    value: string,
    ownerId: number,
    origin: ImportOrigin,
  ): Promise<boolean> {
    try {
      await this.execute(
        stream,
        uniqueClaimDecider,
        { type: 'ClaimUniqueValue', value, ownerId, takenCode: 'taken' },
        origin,
      );
      return true;
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
  }

  /** New ids continue after the imported ones. */
  async advanceSequence(stream: string, max: number): Promise<void> {
    if (max <= 0) return;
    const { state, revision } = await this.load(stream, sequenceDecider);
    if (state.last >= max) return;
    await this.store.append(
      stream,
      [
        {
          id: derivedId(`import:${this.fingerprint}:${stream}:${max}`),
          type: 'IdAllocated',
          data: { id: max },
          metadata: this.metadata({ table: stream, rowId: max }),
        },
      ],
      revision === null ? 'no_stream' : revision,
    );
  }

  /** A stream's last event and revision (null when there is none), without reading the rest. */
  async last(stream: string): Promise<RecordedEvent | null> {
    const [event] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return event ?? null;
  }

  /**
   * Appends events a decider decided on a stream whose revision the caller tracks (a long stream
   * written a batch at a time: the logs), each id derived from its own source row, in appends
   * capped by size (ImportAppends: calls made back to back reach the store in order, and an append
   * refused as a duplicate is completed event by event). Returns the new revision.
   */
  async appendDecided(
    stream: string,
    decided: ReadonlyArray<{ readonly event: DomainEvent; readonly origin: ImportOrigin }>,
    revision: number | null,
  ): Promise<number> {
    // One time and envelope for the batch (thousands of rows: no clock read per row).
    const base = this.metadata({ table: '', rowId: 0 });
    return this.appends.appendAll(
      stream,
      decided.map(({ event, origin }) => ({
        id: derivedId(`import:${this.fingerprint}:${origin.table}:${origin.rowId}:${stream}`),
        type: event.type,
        data: event.data,
        metadata: { ...base, import: { ...base.import, table: origin.table, rowId: origin.rowId } },
      })),
      revision,
    );
  }

  /** The envelope of an imported event: the system actor, this run, and where it came from. */
  metadata(origin: ImportOrigin) {
    return {
      schemaVersion: SCHEMA_VERSION,
      actor: SYSTEM_ACTOR,
      correlationId: this.runId,
      occurredAt: new Date().toISOString(),
      import: {
        project: this.project,
        table: origin.table,
        rowId: origin.rowId,
        fingerprint: this.fingerprint,
      },
    };
  }

  /** A stream's state through its decider, and its last revision (null when there is none). */
  async load<C, S, E extends DomainEvent>(stream: string, decider: Decider<C, S, E>) {
    const events = await this.store.readStream(stream);
    const state = events.reduce(
      (s, r) => decider.evolve(s, { type: r.type, data: r.data } as E),
      decider.initialState,
    );
    return { state, revision: events.length > 0 ? events[events.length - 1]!.revision : null };
  }

  /**
   * Decides `command` on the stream's current state and appends what it decides, with ids derived
   * from `origin` (and `step`, when one row appends twice to the same stream). True when this
   * call appended; false when there was nothing to do (an earlier run did it). A refusal of the
   * decider (DomainError) is thrown.
   *
   * One step is one append of a few small events, atomic on every engine (far below any size at
   * which one is split), so an append refused as a duplicate was written whole: the step is done.
   * Unlike a logs batch it is not completed event by event: decided again at a later revision, its
   * events may belong elsewhere (the user changed the settings since), not after the current head.
   */
  async execute<C, S, E extends DomainEvent>(
    stream: string,
    decider: Decider<C, S, E>,
    command: C,
    origin: ImportOrigin,
    step = '',
  ): Promise<boolean> {
    const { state, revision } = await this.load(stream, decider);
    const events = decider.decide(command, state, { now: new Date() });
    if (events.length === 0) return false;
    const base = `import:${this.fingerprint}:${origin.table}:${origin.rowId}:${stream}${step ? `:${step}` : ''}`;
    const ids = events.map((_, i) => derivedId(base, i));
    try {
      await this.store.append(
        stream,
        events.map((e, i) => ({
          id: ids[i]!,
          type: e.type,
          data: e.data,
          metadata: this.metadata(origin),
        })),
        expectedAfter(revision),
        { idempotencyKey: importAppendKey(this.fingerprint, ids[0]!) },
      );
      return true;
    } catch (error) {
      // Appended by an earlier run that was killed before it could count it.
      if ((error as Error).name !== 'DuplicateEventIdError') throw error;
      return false;
    }
  }
}

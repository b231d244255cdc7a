import type {
  AnyDoc,
  Collection,
  CollectionSpec,
  DeclareOptions,
  Doc,
  ReadStore,
  ReadStoreSession,
} from '@tollgate/read-store';
import { LeaseLostError } from './lease.port';

/** The fence documents: per role, the token of the holder allowed to write the read models. */
export const LEASE_FENCES = 'lease_fences';

interface FenceDoc {
  readonly _id: string;
  readonly token: number;
  readonly writes: number;
}

/**
 * The elected projector's read store when the read models live on a shared server: every
 * transaction first increments the role's fence document *if it still carries our token*, and
 * aborts (LeaseLostError) when it does not. A new holder raises the fence to its higher token
 * before it reads a checkpoint, so:
 *
 * - a stale holder's batch that starts after the raise finds another token and writes nothing;
 * - one in flight at the raise wrote the fence document too, so the two writes conflict and the
 *   server lets only one through (MongoDB aborts the transaction that meets a write conflict;
 *   SQLite serialises them): either the batch lands before the new holder reads the checkpoints
 *   (and is counted there) or it does not land at all.
 *
 * Only the ReadStore port is used, so the same fence works on any adapter whose transactions are
 * atomic (`atomicTransactions`); without them the check and the writes are not one unit and the
 * fence narrows the overlap without closing it (docs/scale-out.md).
 */
export class FencedReadStore implements ReadStore {
  constructor(
    private readonly inner: ReadStore,
    private readonly role: string,
    /** The current tenure's token; null once the lease is lost. */
    private readonly token: () => number | null,
    /** Told once per refused write: the caller stops its projections. */
    private readonly onFenced: (error: LeaseLostError) => void,
  ) {}

  get atomicTransactions(): boolean {
    return this.inner.atomicTransactions;
  }

  /** Takes the fence for the current token: older holders' writes are refused from now on. */
  async raise(): Promise<void> {
    const token = this.requireToken();
    await this.inner.declare([{ name: LEASE_FENCES }], { reconcileIndexes: false });
    await this.inner.transaction(async (session) => {
      const fences = session.collection<FenceDoc>(LEASE_FENCES);
      await fences.update(
        this.role,
        { $max: { token }, $setOnInsert: { writes: 0 } },
        { upsert: true },
      );
      const fence = await fences.get(this.role);
      if (fence?.token !== token) throw this.refuse(token);
    });
  }

  collection<T extends Doc = AnyDoc>(name: string): Collection<T> {
    return this.inner.collection<T>(name);
  }

  declare(specs: readonly CollectionSpec[], options?: DeclareOptions): Promise<void> {
    return this.inner.declare([...specs, { name: LEASE_FENCES }], options);
  }

  transaction<R>(body: (session: ReadStoreSession) => Promise<R>): Promise<R> {
    return this.inner.transaction(async (session) => {
      await this.check(session);
      return body(session);
    });
  }

  /** A version bump's drop runs outside a transaction: checked just before, not atomically. */
  async drop(names: readonly string[]): Promise<void> {
    await this.inner.transaction((session) => this.check(session));
    await this.inner.drop(names);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async check(session: ReadStoreSession): Promise<void> {
    const token = this.requireToken();
    const fences = session.collection<FenceDoc>(LEASE_FENCES);
    const held = await fences.updateMany({ _id: this.role, token }, { $inc: { writes: 1 } });
    if (held === 0) throw this.refuse(token);
  }

  private requireToken(): number {
    const token = this.token();
    if (token === null) throw this.refuse(-1);
    return token;
  }

  private refuse(token: number): LeaseLostError {
    const error = new LeaseLostError(this.role, token);
    this.onFenced(error);
    return error;
  }
}

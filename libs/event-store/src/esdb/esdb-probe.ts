import { AccessDeniedError, BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';

/**
 * Proves within timeoutMs that the server answers and lets this user read `$all` (by default only
 * members of $admins or $ops may; projections and subscriptions need it). Rejects with one line
 * naming what is missing; the caller adds where. `user` is the login name only, never a password.
 */
export async function probeEsdb(
  client: EventStoreDBClient,
  timeoutMs: number,
  user: string | undefined,
): Promise<void> {
  const probe = client.readAll({
    direction: BACKWARDS,
    fromPosition: END,
    maxCount: 1,
    deadline: timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        for await (const _ of probe) break;
      })(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    // Best effort: this call may not hang our caller.
    void Promise.resolve()
      .then(() => probe.cancel())
      .catch(() => undefined);
    if (error instanceof AccessDeniedError) throw new EsdbAccessError(user, error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The user may not read `$all`: fixed by rights on the server, not by retrying. */
export class EsdbAccessError extends Error {
  override readonly name = 'EsdbAccessError';
  constructor(user: string | undefined, cause: unknown) {
    super(
      `EventStoreDB user ${user ?? '(none given)'} may not read $all: give it $ops/$admins or an ` +
        `$all read ACL (docs/engines.md)`,
      { cause },
    );
  }
}

/** The login name in a connection string (esdb://name:password@host), without the password. */
export function userOf(url: string): string | undefined {
  return /^[a-z+]+:\/\/([^:/@]+)(?::[^@]*)?@/i.exec(url)?.[1];
}

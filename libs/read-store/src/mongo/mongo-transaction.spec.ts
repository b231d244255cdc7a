import { SqliteEventStore } from '@tollgate/event-store';
import type { EventStore } from '@tollgate/event-store/event-store.port';
import { ProjectionFailure } from '../projection/apply-events';
import { CHECKPOINTS } from '../projection/checkpoint';
import { ProjectionRunner } from '../projection/projection-runner';
import { FakeMongoServer, serverError, writeConflict } from '../testing/fake-mongo';
import { append, usersProjection } from '../testing/sample-projections';

describe('MongoReadStore transactions under projection batches (fake replica set)', () => {
  let events: EventStore;
  const runners: ProjectionRunner[] = [];
  const run = (runner: ProjectionRunner) => (runners.push(runner), runner);

  beforeEach(async () => {
    events = SqliteEventStore.open(':memory:');
    // A batch whose top-ups are written when the rename flushes them, before the failing write.
    await append(events, 'user-1', 'UserRegistered', { userId: '1', name: 'Ann' });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 1 });
    await append(events, 'billing-1', 'QuotaAdded', { userId: '1', amount: 2 });
    await append(events, 'user-1', 'UserRenamed', { userId: '1', name: 'Anna' });
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await events.close();
  });
  const whole = { _id: '1', name: 'Anna', quota: 3, biggestTopUp: 2 };

  /** The server fails the batch's third write (after the registration and the top-ups). */
  function serverFailingThirdWrite(error: () => Error, budgetMs?: number): FakeMongoServer {
    const server = new FakeMongoServer(
      budgetMs === undefined ? {} : { transactionBudgetMs: budgetMs },
    );
    server.failTransactionWrites(
      () => null,
      () => null,
      error,
    );
    return server;
  }

  it('a batch hit once by a labelled WriteConflict is retried by withTransaction and lands once', async () => {
    const server = serverFailingThirdWrite(writeConflict);
    const reported: Error[] = [];
    const runner = run(
      new ProjectionRunner(events, server.readStore(), [usersProjection()], {
        onError: (_name, error) => reported.push(error),
      }),
    );
    await runner.start();
    await runner.caughtUp;
    // Retried inside withTransaction (the label reached it unwrapped): the runner saw no failure.
    expect(reported).toEqual([]);
    expect(server.answeredCodes).toEqual([112]);
    expect(server.attempts).toBe(2);
    expect(server.commits).toBe(1);
    expect(server.documents('test_users')).toEqual([whole]);
    expect(server.documents(CHECKPOINTS)).toEqual([
      { _id: 'test_users', position: '4/4', version: 1 },
    ]);
  });

  it('an unlabelled server error is not retried: it surfaces as ProjectionFailure and nothing lands', async () => {
    const server = serverFailingThirdWrite(() => serverError(2, 'BadValue'));
    const runner = run(new ProjectionRunner(events, server.readStore(), [usersProjection()]));
    await runner.start();
    const failure = await runner.caughtUp.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProjectionFailure);
    expect((failure as ProjectionFailure).projection).toBe('test_users');
    expect(server.attempts).toBe(1);
    expect(server.commits).toBe(0);
    expect(server.documents('test_users')).toEqual([]);
  });

  it("a labelled error outlasting withTransaction's budget is retried by the runner with backoff, even while catching up", async () => {
    const reported: unknown[] = [];
    // Budget 0: withTransaction gives up at the first transient error, as after 120 s of them.
    const server = serverFailingThirdWrite(writeConflict, 0);
    const runner = run(
      new ProjectionRunner(events, server.readStore(), [usersProjection()], {
        retryDelayMs: 1,
        onError: (_name, error) => reported.push(error),
      }),
    );
    await runner.start();
    await runner.caughtUp;
    expect(reported).toHaveLength(1);
    expect((reported[0] as { code?: number }).code).toBe(112);
    expect(server.attempts).toBe(2);
    expect(server.documents('test_users')).toEqual([whole]);
  });

  it('a commit whose answer was lost after the budget is retried by the runner without applying the batch twice', async () => {
    const reported: Error[] = [];
    const server = new FakeMongoServer({ transactionBudgetMs: 0 });
    server.failCommit(
      () => serverError(91, 'ShutdownInProgress', ['UnknownTransactionCommitResult']),
      { landed: true },
    );
    const runner = run(
      new ProjectionRunner(events, server.readStore(), [usersProjection()], {
        retryDelayMs: 1,
        onError: (_name, error) => reported.push(error),
      }),
    );
    await runner.start();
    await runner.caughtUp;
    expect(reported.map((e) => e.message)).toEqual(['ShutdownInProgress']);
    // The retried batch read the checkpoint the lost commit had written and skipped its events.
    expect(server.commits).toBe(2);
    expect(server.documents('test_users')).toEqual([whole]);
  });
});

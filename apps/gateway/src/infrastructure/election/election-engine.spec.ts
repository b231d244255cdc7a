import { electionEngine } from './election-engine';

const ESDB = 'esdb://events:2113?tls=false';
const MONGO = 'mongodb://reads:27017/tollgate?replicaSet=rs0';

describe('electionEngine', () => {
  it('keeps file locks when both stores are embedded (one machine)', () => {
    expect(electionEngine({}, 'projector')).toBe('file-lock');
    expect(electionEngine({}, 'scheduler')).toBe('file-lock');
  });

  it('holds every lease on a shared read store, which the projector fence lives in', () => {
    const config = { eventStoreUrl: ESDB, readStoreUrl: MONGO };
    expect(electionEngine(config, 'projector')).toBe('read-store-lease');
    expect(electionEngine(config, 'scheduler')).toBe('read-store-lease');
  });

  it('with only the event store shared, elects the projector per DATA_DIR and the scheduler on the log', () => {
    const config = { eventStoreUrl: ESDB };
    expect(electionEngine(config, 'projector')).toBe('file-lock');
    expect(electionEngine(config, 'scheduler')).toBe('event-store-lease');
  });
});

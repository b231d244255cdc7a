import { FakeEsdbClient } from '../testing/fake-esdb-client';
import { EsdbAccessError, probeEsdb, userOf } from './esdb-probe';

describe('probeEsdb', () => {
  it('names the rights needed when the user may not read $all, never the password', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, denyAllReads: true });
    const url = 'esdb://gateway:s3cret@db:2113?tls=false';
    const error: unknown = await probeEsdb(fake.asClient(), 1000, userOf(url)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EsdbAccessError);
    expect((error as Error).message).toBe(
      'EventStoreDB user gateway may not read $all: give it $ops/$admins or an $all read ACL ' +
        '(docs/engines.md)',
    );
    expect(JSON.stringify(error) + String(error)).not.toContain('s3cret');
  });

  it('passes when $all answers', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true });
    await expect(probeEsdb(fake.asClient(), 1000, undefined)).resolves.toBeUndefined();
  });

  it('reads the user name, not the password, from a connection string', () => {
    expect(userOf('esdb://ops:pw@h:1,h:2?tls=true')).toBe('ops');
    expect(userOf('esdb+discover://admin:changeit@cluster')).toBe('admin');
    expect(userOf('esdb://h:2113?tls=false')).toBeUndefined();
  });
});

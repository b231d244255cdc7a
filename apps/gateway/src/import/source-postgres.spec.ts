import { SourceDatabase } from './source-database';
import { ImportRefused } from './source-engine';
import { PostgresSource } from './source-postgres';

const PASSWORD = 'pg-s3cret-Pa55';

async function refusal(open: () => Promise<unknown>): Promise<ImportRefused> {
  try {
    await open();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefused);
    return error as ImportRefused;
  }
  throw new Error('expected a refusal');
}

describe('PostgresSource', () => {
  it('refuses an unreachable server with the masked URL and the driver message', async () => {
    const error = await refusal(() =>
      PostgresSource.open(`postgres://newapi:${PASSWORD}@127.0.0.1:1/newapi?sslmode=disable`),
    );
    expect(error.message).toMatch(
      /^Cannot connect to postgres:\/\/newapi:\*\*\*@127\.0\.0\.1:1\/newapi\?sslmode=disable: .*ECONNREFUSED/,
    );
    expect(error.message).not.toContain(PASSWORD);
  });

  it('is what SourceDatabase opens for postgres:// and postgresql://', async () => {
    for (const scheme of ['postgres', 'postgresql']) {
      const error = await refusal(() =>
        SourceDatabase.open(`${scheme}://newapi:${PASSWORD}@127.0.0.1:1/newapi`),
      );
      expect(error.message).toContain(
        `Cannot connect to ${scheme}://newapi:***@127.0.0.1:1/newapi`,
      );
      expect(error.message).not.toContain(PASSWORD);
    }
  });

  it('masks a percent-encoded password too', async () => {
    const error = await refusal(() =>
      PostgresSource.open('postgresql://newapi:p%40ss%3Aword99@127.0.0.1:1/newapi'),
    );
    expect(error.message).toContain('postgresql://newapi:***@127.0.0.1:1/newapi');
    expect(error.message).not.toMatch(/p%40ss|p@ss:word99/);
  });

  it('refuses a URL that does not parse, without the password', async () => {
    const error = await refusal(() =>
      PostgresSource.open(`postgres://newapi:${PASSWORD}@bad host:1/newapi`),
    );
    expect(error.message).toMatch(/is not a valid PostgreSQL URL/);
    expect(error.message).not.toContain(PASSWORD);
  });
});

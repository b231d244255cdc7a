import { SourceDatabase } from './source-database';
import { ImportRefused } from './source-engine';
import { MysqlSource } from './source-mysql';
import { maskedUrl, withoutPassword } from './source-sql-server';

const PASSWORD = 's3cret-Pa55';

async function refusal(open: () => Promise<unknown>): Promise<ImportRefused> {
  try {
    await open();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefused);
    return error as ImportRefused;
  }
  throw new Error('expected a refusal');
}

describe('maskedUrl', () => {
  it('replaces the password with *** and keeps the rest', () => {
    expect(maskedUrl(`mysql://oneapi:${PASSWORD}@db.local:3306/oneapi?parseTime=true`)).toBe(
      'mysql://oneapi:***@db.local:3306/oneapi?parseTime=true',
    );
    expect(maskedUrl('postgresql://u:p%40ss@127.0.0.1/newapi')).toBe(
      'postgresql://u:***@127.0.0.1/newapi',
    );
  });

  it('leaves a URL without a password as it is', () => {
    expect(maskedUrl('mysql://root@localhost/oneapi')).toBe('mysql://root@localhost/oneapi');
  });

  it('masks a URL that does not parse', () => {
    const masked = maskedUrl(`mysql://oneapi:${PASSWORD}@bad host:99999/x`);
    expect(masked).not.toContain(PASSWORD);
    expect(masked).toContain('mysql://oneapi:***@');
  });

  it('scrubs a password a driver message might echo', () => {
    expect(withoutPassword(`denied for ${PASSWORD}`, PASSWORD)).toBe('denied for ***');
  });
});

describe('MysqlSource', () => {
  it('refuses an unreachable server with the masked URL and the driver message', async () => {
    const spec = `mysql://oneapi:${PASSWORD}@127.0.0.1:1/oneapi`;
    const error = await refusal(() => MysqlSource.open(spec));
    expect(error.message).toMatch(
      /^Cannot connect to mysql:\/\/oneapi:\*\*\*@127\.0\.0\.1:1\/oneapi: .*ECONNREFUSED/,
    );
    expect(error.message).not.toContain(PASSWORD);
  });

  it('is what SourceDatabase opens for mysql://', async () => {
    const error = await refusal(() =>
      SourceDatabase.open(`mysql://oneapi:${PASSWORD}@127.0.0.1:1/oneapi`),
    );
    expect(error.message).toMatch(/^Cannot connect to mysql:\/\/oneapi:\*\*\*@/);
    expect(error.message).not.toContain(PASSWORD);
  });

  it('refuses a URL naming no database, without the password', async () => {
    const error = await refusal(() => MysqlSource.open(`mysql://oneapi:${PASSWORD}@127.0.0.1:1`));
    expect(error.message).toMatch(/names no database/);
    expect(error.message).not.toContain(PASSWORD);
  });

  it('refuses a URL that does not parse, without the password', async () => {
    const error = await refusal(() =>
      MysqlSource.open(`mysql://oneapi:${PASSWORD}@bad host:1/oneapi`),
    );
    expect(error.message).toMatch(/is not a valid MySQL URL/);
    expect(error.message).not.toContain(PASSWORD);
  });
});

import { KeyedMutex } from './keyed-mutex';

describe('KeyedMutex', () => {
  it('runs work on one key strictly one after another, other keys in parallel', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (key: string, name: string, ms: number) =>
      mutex.run(key, async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        return name;
      });
    const results = await Promise.all([
      task('a', 'a1', 20),
      task('a', 'a2', 1),
      task('b', 'b1', 5),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
  });

  it('releases the key when the work throws', async () => {
    const mutex = new KeyedMutex();
    await expect(mutex.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run('k', () => Promise.resolve(1))).resolves.toBe(1);
  });
});

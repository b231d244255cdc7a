import { spawnSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth';

describe('heapGrowthFlag', () => {
  it('asks V8 for a fixed growth factor when the process was started without one', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=512'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('leaves a factor given on the command line as it is, in any spelling V8 reads', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=80'])).toBeNull();
    expect(heapGrowthFlag(['--heap-growing-percent', '80'])).toBeNull();
    expect(heapGrowthFlag(['--heap_growing_percent=80'])).toBeNull();
  });

  it('names a flag this V8 knows (an unknown one is only reported on stderr, and does nothing)', () => {
    const run = (flag: string) =>
      spawnSync(
        process.execPath,
        ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
        { encoding: 'utf8' },
      );
    expect(run(heapGrowthFlag([])!).stderr).toBe('');
    // The check itself can fail: a misspelt flag is reported.
    expect(run('--heap-growing-percentage=30').stderr).toContain('unrecognized flag');
  });
});

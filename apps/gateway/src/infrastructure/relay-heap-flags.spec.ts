import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP_GROWING_PERCENT, relayHeapFlags } from './relay-heap-flags';

const GROWTH = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
const NO_PRETENURING = '--no-allocation-site-pretenuring';

describe('relayHeapFlags', () => {
  it('bounds the heap growth and turns pretenuring off when the process was started without them', () => {
    expect(relayHeapFlags([])).toEqual([GROWTH, NO_PRETENURING]);
    expect(relayHeapFlags(['--enable-source-maps', '--max-old-space-size=512'])).toEqual([
      GROWTH,
      NO_PRETENURING,
    ]);
  });

  it('leaves a growth factor given on the command line as it is, in any spelling V8 reads', () => {
    for (const given of [['--heap-growing-percent=80'], ['--heap-growing-percent', '80']])
      expect(relayHeapFlags(given)).toEqual([NO_PRETENURING]);
    expect(relayHeapFlags(['--heap_growing_percent=80'])).toEqual([NO_PRETENURING]);
  });

  it('leaves pretenuring as the command line set it, on or off', () => {
    for (const given of [
      '--allocation-site-pretenuring',
      '--no-allocation-site-pretenuring',
      '--noallocation-site-pretenuring',
      '--allocation_site_pretenuring',
    ])
      expect(relayHeapFlags([given])).toEqual([GROWTH]);
  });

  it('names flags this V8 knows (an unknown one is only reported on stderr, and does nothing)', () => {
    const run = (flag: string) =>
      spawnSync(
        process.execPath,
        ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
        { encoding: 'utf8' },
      );
    for (const flag of relayHeapFlags([])) expect(run(flag).stderr).toBe('');
    // The check itself can fail: a misspelt flag is reported.
    expect(run('--heap-growing-percentage=30').stderr).toContain('unrecognized flag');
    expect(run('--no-allocation-site-pretenure').stderr).toContain('unrecognized flag');
  });
});

describe('the relay process entry point', () => {
  it('sets the flags in its first import, before any other module loads', () => {
    const main = readFileSync(join(__dirname, '..', 'main.ts'), 'utf8');
    const firstImport = /^import\s+(?:[^'"]*from\s+)?'([^']+)';/m.exec(main)?.[1];
    expect(firstImport).toBe('./relay-heap-flags-first');
    const first = readFileSync(join(__dirname, '..', 'relay-heap-flags-first.ts'), 'utf8');
    expect(first).toMatch(/^setRelayHeapFlags\(\);$/m);
  });
});

import { spawnSync } from 'node:child_process';
import { PROJECTOR_SEMI_SPACE_MIB, projectorNodeFlags } from './projector-node-flags';

describe('projectorNodeFlags', () => {
  it("caps the child's young generation when NODE_OPTIONS does not", () => {
    const flags = [`--max-semi-space-size=${PROJECTOR_SEMI_SPACE_MIB}`];
    expect(projectorNodeFlags(undefined)).toEqual(flags);
    expect(projectorNodeFlags('')).toEqual(flags);
    expect(projectorNodeFlags('--enable-source-maps --max-old-space-size=512')).toEqual(flags);
  });

  it('leaves a size NODE_OPTIONS gives to it, in any spelling V8 reads', () => {
    expect(projectorNodeFlags('--max-semi-space-size=16')).toEqual([]);
    expect(projectorNodeFlags('--enable-source-maps  --max_semi_space_size=8')).toEqual([]);
    expect(projectorNodeFlags('--max-semi-space-size 16')).toEqual([]);
  });

  it('names a flag this node starts with (an unknown one stops it with "bad option")', () => {
    const run = (flags: string[]) =>
      spawnSync(process.execPath, [...flags, '-e', ''], { encoding: 'utf8' });
    const started = run(projectorNodeFlags(undefined));
    expect(started.status).toBe(0);
    expect(started.stderr).toBe('');
    // The check itself can fail: a misspelt flag is refused.
    expect(run(['--max-semi-space-sizes=4']).stderr).toContain('bad option');
  });
});

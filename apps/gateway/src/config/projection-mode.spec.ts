import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { projectionMode } from './projection-mode';

describe('SCALE_OUT and PROJECTIONS', () => {
  let dataDir: string;
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tollgate-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('defaults to one process that projects', () => {
    const config = load({});
    expect(config).toMatchObject({ scaleOut: false, projections: 'auto', projector: 'process' });
    expect(load({ PROJECTOR: 'inline' }).projector).toBe('inline');
    expect(projectionMode(config)).toBe('project');
  });

  it('elects the projector in scale-out, on the embedded read store and on MongoDB alike', () => {
    expect(projectionMode(load({ SCALE_OUT: 'on' }))).toBe('elect');
    expect(projectionMode(load({ SCALE_OUT: 'on', READ_STORE_URL: 'mongodb://db:27017/t' }))).toBe(
      'elect',
    );
  });

  it('obeys PROJECTIONS=on and off', () => {
    expect(projectionMode(load({ SCALE_OUT: 'on', PROJECTIONS: 'on' }))).toBe('project');
    expect(projectionMode(load({ SCALE_OUT: 'on', PROJECTIONS: 'off' }))).toBe('follow');
  });

  it('stops the start on a bad value, naming the variable', () => {
    expect(() => load({ SCALE_OUT: 'yes' })).toThrow('SCALE_OUT must be one of on, off, got "yes"');
    expect(() => load({ PROJECTIONS: 'elected' })).toThrow(
      'PROJECTIONS must be one of auto, on, off, got "elected"',
    );
    expect(() => load({ PROJECTOR: 'thread' })).toThrow(
      'PROJECTOR must be one of process, inline, got "thread"',
    );
  });
});

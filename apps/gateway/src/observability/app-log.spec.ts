import pino from 'pino';
import { createAppLog, NestLogOverPino } from './app-log';

function capture(level: pino.Level) {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino(
    { level, formatters: { level: (label) => ({ level: label }) } },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { lines, nest: new NestLogOverPino(log) };
}

describe('NestLogOverPino', () => {
  it('writes Nest messages as JSON lines with their context, errors with their stack', () => {
    const { lines, nest } = capture('info');
    nest.log('Listening', 'Tollgate');
    nest.error('boom', 'Error: boom\n    at x', 'Relay');
    nest.warn('careful');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'Listening', context: 'Tollgate' }),
      expect.objectContaining({
        level: 'error',
        msg: 'boom',
        context: 'Relay',
        stack: 'Error: boom\n    at x',
      }),
      expect.objectContaining({ level: 'warn', msg: 'careful' }),
    ]);
  });

  it("keeps below the level out and moves Nest's start-up chatter to debug", () => {
    const { lines, nest } = capture('info');
    nest.debug('details', 'Relay');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Mapped {/api/status, GET} route', 'RouterExplorer');
    expect(lines).toEqual([]);
    const verbose = capture('debug');
    verbose.nest.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(verbose.lines).toEqual([
      expect.objectContaining({ level: 'debug', context: 'InstanceLoader' }),
    ]);
  });
});

describe('createAppLog', () => {
  it('builds the terminal format from pino-pretty, loaded only when asked for', () => {
    // Nothing is written: the level keeps every line out of the test's output.
    const log = createAppLog({ logLevel: 'error', logFormat: 'pretty' });
    log.warn('kept out');
    expect([log.level, log.isLevelEnabled('warn')]).toEqual(['error', false]);
  });
});

import { withFields } from '@tollgate/domain';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger as Pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { AppConfig } from '../config/app-config';

const PINO_LEVEL: Record<AppConfig['logLevel'], pino.Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
};

/**
 * The process's logger: JSON lines on stdout (`time`, `level`, `msg`, fields), written
 * asynchronously so a slow log reader does not stall the relay; LOG_FORMAT=pretty for a terminal.
 * `destination` replaces stdout (tests that read what the gateway logs).
 */
export function createAppLog(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  destination?: pino.DestinationStream,
): Pino {
  const options: pino.LoggerOptions = {
    level: PINO_LEVEL[config.logLevel],
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (destination) return pino(options, destination);
  if (config.logFormat === 'pretty') {
    // Loaded only for a terminal: JSON lines, the default, need none of its ~40 modules.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous lazy load
    const pretty = (require('pino-pretty') as { default: typeof PinoPretty }).default;
    return pino(options, pretty({ sync: true }));
  }
  return pino(options, pino.destination({ sync: false }));
}

/** Nest's per-module and per-route start-up lines: a few hundred, useful only when debugging. */
const CHATTY_CONTEXTS = new Set([
  'InstanceLoader',
  'RouterExplorer',
  'RoutesResolver',
  'WebSocketsController',
]);

/** Nest's own messages (start-up, errors, warnings) through the same JSON lines. */
export class NestLogOverPino implements LoggerService {
  constructor(private readonly pino: Pino) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest passes (message, context) or (message, stack, context): the last string is the context. */
  private write(wanted: pino.Level, message: unknown, rest: unknown[]): void {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    const level = wanted === 'info' && context && CHATTY_CONTEXTS.has(context) ? 'debug' : wanted;
    if (!this.pino.isLevelEnabled(level)) return;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      fields.err = message;
      this.pino[level](fields, message.message);
    } else if (typeof message === 'string') this.pino[level](fields, message);
    else this.pino[level](withFields(fields, { data: message }));
  }
}

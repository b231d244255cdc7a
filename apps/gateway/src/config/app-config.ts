import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

/** Everything the gateway reads from the environment, read once at start-up. */
export interface AppConfig {
  /** package.json's version, shown in the status. */
  readonly version: string;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly eventStoreUrl?: string;
  readonly readStoreUrl?: string;
  /**
   * READ_STORE_ALLOW_STANDALONE=on: accept a MongoDB server without transactions (no replica set);
   * projections then mark each batch and rebuild a projection a crash left half-applied.
   */
  readonly readStoreAllowStandalone: boolean;
  /** Signs sessions and derives the key that encrypts secrets in events. */
  readonly sessionSecret: string;
  readonly consoleDir: string;
  readonly criticalRateLimit: { readonly max: number; readonly windowMs: number };
  /** Failed password checks allowed per account (login) or user (confirmations) per window. */
  readonly passwordAttempts: { readonly max: number; readonly windowMs: number };
  readonly waitForProjectionsMs: number;
  /** PROJECTION_PACING_MS: once caught up, the pause after a batch of usage receipts (see README). */
  readonly projectionPacingMs: number;
  /** USAGE_BATCH_MS: usage receipts are committed at most once per this many ms. */
  readonly usageBatchMs: number;
  /**
   * BILLING_DURABILITY: `batched` (default) answers at once and commits the receipts of a few ms
   * together; `strict` writes an answer's last bytes only after its receipt is committed.
   */
  readonly billingDurability: 'batched' | 'strict';
  /**
   * RELAY_RESERVE_WAIT_MS: how long a request whose payer is short only because of reservations
   * still open waits for them to settle before it is refused.
   */
  readonly relayReserveWaitMs: number;
  /** Which proxies' X-Forwarded-* headers count (see parseTrustProxy). */
  readonly trustProxy: TrustProxy;
  /** LOG_LEVEL: `log` (= info, one line per request) by default; `info` is accepted for `log`. */
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** LOG_FORMAT: JSON lines by default; `pretty` for a terminal during development. */
  readonly logFormat: 'json' | 'pretty';
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
  /** Upper bound of a channel test, balance or model-list call to a provider. */
  readonly channelTestTimeoutMs: number;
  /** CHANNEL_TEST_FREQUENCY: ms between scheduled runs of "test all channels"; 0 = never. */
  readonly channelTestFrequencyMs: number;
  /** Third-party sign-in endpoints (tests point them at local mocks) and the call timeout. */
  readonly oauth: OAuthConfig;
  /** Mail: SMTP_TIMEOUT_MS bounds each SMTP step; MAIL_CODE_TTL_S how long codes live. */
  readonly mail: { readonly smtpTimeoutMs: number; readonly codeTtlMs: number };
  /** TURNSTILE_VERIFY_URL: Cloudflare's siteverify endpoint (tests point it at a local mock). */
  readonly turnstileVerifyUrl: string;
  /** STRIPE_API_BASE: where the stripe library sends API calls (tests point it at a local mock). */
  readonly stripeApiBase: string;
  /**
   * Midjourney / Suno tasks: TASK_POLL_INTERVAL_MS between polls of the upstreams (0 = never, for
   * tests that poll by hand), TASK_TIMEOUT_MINUTES before an open task fails with a refund.
   */
  readonly tasks: { readonly pollIntervalMs: number; readonly timeoutMs: number };
  /** SHUTDOWN_GRACE_MS: how long a SIGTERM waits for open requests and streams before cutting them. */
  readonly shutdownGraceMs: number;
  /**
   * SHUTDOWN_DELAY_MS: after a SIGTERM, /readyz answers 503 for this long while the listener
   * still serves, so a load balancer stops sending before the port closes (0 = close at once).
   */
  readonly shutdownDelayMs: number;
  /** SCALE_OUT=on: several gateway processes share one DATA_DIR (docs/scale-out.md). */
  readonly scaleOut: boolean;
  /**
   * PROJECTIONS: whether this process writes the read models. `auto` (default): yes alone; in
   * scale-out, the elected process on an embedded read store, every process on MongoDB.
   */
  readonly projections: 'auto' | 'on' | 'off';
  /**
   * PROJECTOR: where a gateway alone on its stores writes the read models when started as a
   * server (`main.js`). `process` (default): a projector child process it starts, restarts and
   * stops, so the relay's core does only relay work (docs/operations.md#the-projector-process).
   * `inline`: in the gateway's own process. Scale-out and PROJECTIONS=on/off ignore it.
   */
  readonly projector: 'process' | 'inline';
  /** LEASE_TTL_MS: how long a scale-out balance lease lives unless renewed (docs/scale-out.md). */
  readonly leaseTtlMs: number;
  /** LEASE_SLICE_QUOTA: the quota a lease asks for beyond a request's need (default $1). */
  readonly leaseSliceQuota: number;
  /**
   * Read-model checkpoints (SQLite read store, docs/operations.md): READ_CHECKPOINT_EVERY events
   * processed (0 = none taken), or READ_CHECKPOINT_HOURS since the last (0 = no time trigger).
   */
  readonly readCheckpoints: { readonly everyEvents: number; readonly everyMs: number };
}

export interface OAuthConfig {
  /** GITHUB_OAUTH_URL: authorize and token exchange (`/login/oauth/...`); default https://github.com. */
  readonly githubOAuthUrl: string;
  /** GITHUB_API_URL: the user API (`/user`); default https://api.github.com. */
  readonly githubApiUrl: string;
  /** LINUXDO_OAUTH_URL: authorize and token exchange (`/oauth2/...`); default https://connect.linux.do. */
  readonly linuxdoOAuthUrl: string;
  /** LINUXDO_API_URL: the user API (`/api/user`); default https://connect.linux.do. */
  readonly linuxdoApiUrl: string;
  /** OAUTH_TIMEOUT_MS: bound of each call to GitHub, Linux DO, the WeChat server or the OIDC provider. */
  readonly timeoutMs: number;
}

/** An http(s) base URL from the environment, without trailing slashes. */
function baseUrlFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** One of a fixed set of words; unset means the fallback. */
function choiceFromEnv<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!(choices as readonly string[]).includes(raw))
    throw new Error(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** The longest delay setTimeout honours (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** A non-negative number of minutes (fractions allowed), in ms, within setTimeout's range. */
function minutesFromEnv(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return 0;
  const minutes = Number(raw);
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new Error(`${name} must be a non-negative number of minutes, got "${raw}"`);
  const ms = Math.round(minutes * 60_000);
  // Node fires a longer timer after 1 ms: a "once a month" value would run back to back.
  if (ms > MAX_TIMER_MS)
    throw new Error(
      `${name} must be at most ${Math.floor(MAX_TIMER_MS / 60_000)} minutes, got "${raw}"`,
    );
  return ms;
}

/**
 * Without SESSION_SECRET a single embedded gateway keeps a generated one in DATA_DIR, so sessions and
 * encrypted secrets survive restarts. Several processes must share an explicit SESSION_SECRET.
 */
function resolveSessionSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  const file = join(dataDir, '.session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  try {
    // Exclusive create: scale-out processes starting together on one DATA_DIR agree on the first.
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8').trim();
  }
  return secret;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const level = env.LOG_LEVEL === 'info' ? 'log' : (env.LOG_LEVEL ?? 'log');
  const durability = choiceFromEnv(env, 'BILLING_DURABILITY', ['batched', 'strict'], 'batched');
  return {
    version: packageVersion(),
    port: intFromEnv(env, 'PORT', 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    eventStoreUrl: env.EVENT_STORE_URL || undefined,
    readStoreUrl: env.READ_STORE_URL || undefined,
    readStoreAllowStandalone:
      choiceFromEnv(env, 'READ_STORE_ALLOW_STANDALONE', ['on', 'off'], 'off') === 'on',
    sessionSecret: resolveSessionSecret(env, dataDir),
    consoleDir: resolve(env.CONSOLE_DIR ?? 'frontend/dist'),
    criticalRateLimit: {
      max: intFromEnv(env, 'CRITICAL_RATE_LIMIT', 20),
      windowMs: intFromEnv(env, 'CRITICAL_RATE_LIMIT_DURATION', 1200) * 1000,
    },
    passwordAttempts: {
      max: intFromEnv(env, 'PASSWORD_ATTEMPT_LIMIT', 10),
      windowMs: intFromEnv(env, 'PASSWORD_ATTEMPT_WINDOW', 900) * 1000,
    },
    waitForProjectionsMs: intFromEnv(env, 'PROJECTION_WAIT_MS', 5000),
    projectionPacingMs: intFromEnv(env, 'PROJECTION_PACING_MS', 25),
    // Strict durability waits for each commit: by default it commits every tick, not every 8 ms
    // (receipts arriving while one commit runs still share the next).
    usageBatchMs: intFromEnv(env, 'USAGE_BATCH_MS', durability === 'strict' ? 0 : 8),
    billingDurability: durability,
    relayReserveWaitMs: intFromEnv(env, 'RELAY_RESERVE_WAIT_MS', 5_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: (['error', 'warn', 'log', 'debug'].includes(level)
      ? level
      : 'log') as AppConfig['logLevel'],
    logFormat: env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json',
    metricsToken: env.METRICS_TOKEN || undefined,
    channelTestTimeoutMs: intFromEnv(env, 'CHANNEL_TEST_TIMEOUT_MS', 30_000),
    channelTestFrequencyMs: minutesFromEnv(env, 'CHANNEL_TEST_FREQUENCY'),
    oauth: {
      githubOAuthUrl: baseUrlFromEnv(env, 'GITHUB_OAUTH_URL', 'https://github.com'),
      githubApiUrl: baseUrlFromEnv(env, 'GITHUB_API_URL', 'https://api.github.com'),
      linuxdoOAuthUrl: baseUrlFromEnv(env, 'LINUXDO_OAUTH_URL', 'https://connect.linux.do'),
      linuxdoApiUrl: baseUrlFromEnv(env, 'LINUXDO_API_URL', 'https://connect.linux.do'),
      timeoutMs: intFromEnv(env, 'OAUTH_TIMEOUT_MS', 10_000),
    },
    mail: {
      smtpTimeoutMs: intFromEnv(env, 'SMTP_TIMEOUT_MS', 10_000),
      codeTtlMs: intFromEnv(env, 'MAIL_CODE_TTL_S', 600) * 1000,
    },
    turnstileVerifyUrl:
      env.TURNSTILE_VERIFY_URL || 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    stripeApiBase: baseUrlFromEnv(env, 'STRIPE_API_BASE', 'https://api.stripe.com'),
    tasks: {
      pollIntervalMs: intFromEnv(env, 'TASK_POLL_INTERVAL_MS', 15_000),
      timeoutMs: intFromEnv(env, 'TASK_TIMEOUT_MINUTES', 60) * 60_000,
    },
    shutdownGraceMs: intFromEnv(env, 'SHUTDOWN_GRACE_MS', 30_000),
    shutdownDelayMs: intFromEnv(env, 'SHUTDOWN_DELAY_MS', 0),
    scaleOut: choiceFromEnv(env, 'SCALE_OUT', ['on', 'off'], 'off') === 'on',
    projections: choiceFromEnv(env, 'PROJECTIONS', ['auto', 'on', 'off'], 'auto'),
    projector: choiceFromEnv(env, 'PROJECTOR', ['process', 'inline'], 'process'),
    leaseTtlMs: Math.max(600, intFromEnv(env, 'LEASE_TTL_MS', 60_000)),
    leaseSliceQuota: intFromEnv(env, 'LEASE_SLICE_QUOTA', 500_000),
    readCheckpoints: {
      everyEvents: intFromEnv(env, 'READ_CHECKPOINT_EVERY', 100_000),
      everyMs: intFromEnv(env, 'READ_CHECKPOINT_HOURS', 24) * 3_600_000,
    },
  };
}

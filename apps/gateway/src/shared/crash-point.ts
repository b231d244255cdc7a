/**
 * Test hook for crash-safety tests: with TOLLGATE_CRASH_AT=<name> in the environment, the process
 * kills itself (SIGKILL: no cleanup, like a power cut) when it reaches that named point. Without
 * the variable this is one environment lookup; production never sets it.
 */
export const CRASH_AT_ENV = 'TOLLGATE_CRASH_AT';

export function crashPoint(name: string): void {
  if (process.env[CRASH_AT_ENV] === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * Whether these node options (a process's `execArgv`, or `NODE_OPTIONS` split on spaces) already
 * set this V8 flag, in either of the spellings V8 reads (`--a-b` or `--a_b`, `=value` or a separate
 * value): the gateway sets its own memory flags only when the operator did not.
 */
export function v8FlagGiven(options: readonly string[], flag: `--${string}`): boolean {
  return options
    .map((option) => option.replace(/_/g, '-'))
    .some((option) => option === flag || option.startsWith(`${flag}=`));
}

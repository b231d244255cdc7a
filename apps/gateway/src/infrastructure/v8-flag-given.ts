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

/**
 * Whether these node options already turn this V8 switch (a boolean flag, named without its
 * dashes) on or off: `--a-b`, `--no-a-b` or `--noa-b`, dashed or underscored.
 */
export function v8SwitchGiven(options: readonly string[], name: string): boolean {
  const spellings: ReadonlyArray<`--${string}`> = [`--${name}`, `--no-${name}`, `--no${name}`];
  return spellings.some((spelling) => v8FlagGiven(options, spelling));
}

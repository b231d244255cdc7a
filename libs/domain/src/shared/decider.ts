/** What the outside world hands a decision: time and fresh ids are inputs, never read here. */
export interface DecideContext {
  readonly now: Date;
}

/** A pure aggregate: fold past events into state, decide new events from a command. */
export interface Decider<Command, State, Event> {
  readonly initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State, context: DecideContext): Event[];
  /**
   * Set on deciders of long-lived streams: their state (plain JSON) may be snapshotted, so a cold
   * start folds only the events after the last snapshot. Bump it whenever the state's shape changes.
   */
  readonly snapshotVersion?: number;
}

/** A domain event as deciders see it: a type tag and its data. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

export function fold<S, E>(
  decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>,
  events: readonly E[],
): S {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState);
}

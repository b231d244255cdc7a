export interface Throttled {
  (): void;
  /** Drops a call that is waiting for its turn. */
  cancel: () => void;
}

/**
 * At most one call of `run` per `intervalMs`, however often it is asked for: the first ask runs
 * at once, the asks during the interval collapse into one call at its end (none is lost).
 */
export function throttle(run: () => void, intervalMs: number): Throttled {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  const throttled = () => {
    if (timer !== undefined) return;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) fire();
    else timer = setTimeout(fire, wait);
  };
  throttled.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return throttled;
}

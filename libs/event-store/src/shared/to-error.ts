/** Normalises anything thrown into an Error (handlers may throw strings). */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

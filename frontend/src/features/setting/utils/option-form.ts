import type { optionsZhCN } from '../locales/zh-cn';

/** Every option key a settings card edits (the labels' keys: a key without a label fails tsc). */
export type OptionKey = keyof typeof optionsZhCN.options.labels;
export type OptionHintKey = keyof typeof optionsZhCN.options.hints;

export type FieldKind =
  'switch' | 'text' | 'textarea' | 'number' | 'json' | 'secret' | 'address' | 'select' | 'tags';

export interface FieldSpec {
  readonly key: OptionKey;
  readonly kind: FieldKind;
  /** Lower bound of a number field. */
  readonly min?: number;
  /** Whole numbers only. */
  readonly integer?: boolean;
  /** The values a select offers (labels under options.choices). */
  readonly choices?: readonly ('hour' | 'day' | 'week' | 'weighted' | 'latency' | 'least-busy')[];
  /** Text areas: starting height. */
  readonly rows?: number;
}

export type FormValues = Record<string, string>;

/** What a card edits: the server's values when loaded (`baseline`) and the form's (`values`). */
export interface FormState {
  readonly baseline: FormValues;
  readonly values: FormValues;
}

/** The server's value of each field; secrets are never sent to the browser, so they start blank. */
export function pickFields(fields: readonly FieldSpec[], server: FormValues): FormValues {
  return Object.fromEntries(
    fields.map((field) => [field.key, field.kind === 'secret' ? '' : (server[field.key] ?? '')]),
  );
}

/**
 * New server values arrived: fields the user has not touched follow them, edited ones keep the
 * edit (another card's save or a socket push must not wipe what is being typed).
 */
export function rebase(previous: FormState | null, next: FormValues): FormState {
  if (!previous) return { baseline: next, values: next };
  const values: FormValues = {};
  for (const [key, value] of Object.entries(next)) {
    const edited = previous.values[key] !== previous.baseline[key];
    values[key] = edited ? (previous.values[key] ?? value) : value;
  }
  return { baseline: next, values };
}

/** The value as it is sent: addresses lose surrounding blanks and trailing slashes. */
export function wireValue(field: FieldSpec, value: string): string {
  switch (field.kind) {
    case 'address':
      return value.trim().replace(/\/+$/, '');
    case 'number':
    case 'text':
    case 'secret':
      return value.trim();
    default:
      return value;
  }
}

/** Changed fields in card order; a blank secret keeps the stored one and is never sent. */
export function changedOptions(
  fields: readonly FieldSpec[],
  state: FormState,
): Array<{ key: OptionKey; value: string }> {
  const changes: Array<{ key: OptionKey; value: string }> = [];
  for (const field of fields) {
    const value = wireValue(field, state.values[field.key] ?? '');
    if (field.kind === 'secret' ? value !== '' : value !== (state.baseline[field.key] ?? ''))
      changes.push({ key: field.key, value });
  }
  return changes;
}

export type FieldProblem =
  | { readonly code: 'invalidJson' | 'topupGroupRatioInvalidJson' | 'notANumber' }
  | { readonly code: 'belowMinimum'; readonly min: number };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON editors hold an object (ratios, groups) or, for Chats, a list of objects. */
function jsonShapeOk(key: OptionKey, text: string): boolean {
  try {
    const parsed = JSON.parse(text) as unknown;
    return key === 'Chats'
      ? Array.isArray(parsed) && parsed.every(isPlainObject)
      : isPlainObject(parsed);
  } catch {
    return false;
  }
}

/** The problem of one changed field, checked before anything is sent; null when it may go. */
export function fieldProblem(field: FieldSpec, value: string): FieldProblem | null {
  if (field.kind === 'json' && !jsonShapeOk(field.key, value))
    return {
      code: field.key === 'TopupGroupRatio' ? 'topupGroupRatioInvalidJson' : 'invalidJson',
    };
  if (field.kind === 'number') {
    const n = Number(value);
    if (value === '' || !Number.isFinite(n) || (field.integer && !Number.isInteger(n)))
      return { code: 'notANumber' };
    if (field.min !== undefined && n < field.min) return { code: 'belowMinimum', min: field.min };
  }
  return null;
}

export type OptionChange = { readonly key: OptionKey; readonly value: string };

/** The problem of each change that may not go, by key; empty when all may. */
export function changeProblems(
  fields: readonly FieldSpec[],
  changes: readonly OptionChange[],
): Partial<Record<OptionKey, FieldProblem>> {
  const problems: Partial<Record<OptionKey, FieldProblem>> = {};
  for (const { key, value } of changes) {
    const field = fields.find((f) => f.key === key);
    const problem = field && fieldProblem(field, value);
    if (problem) problems[key] = problem;
  }
  return problems;
}

/**
 * The form after a save: what the server took is the new baseline of those fields, and saved secrets
 * go blank again (they are never read back).
 */
export function acceptSaved(
  previous: FormState,
  fields: readonly FieldSpec[],
  saved: readonly OptionKey[],
  sent: readonly OptionChange[],
): FormState {
  const baseline = { ...previous.baseline };
  const values = { ...previous.values };
  for (const key of saved) {
    const secret = fields.find((f) => f.key === key)?.kind === 'secret';
    const value = secret ? '' : (sent.find((c) => c.key === key)?.value ?? '');
    baseline[key] = value;
    values[key] = value;
  }
  return { baseline, values };
}

export type SaveOutcome = 'saved' | 'failed' | 'partial';

/** How a save went, for its notice: all saved, none saved, or some. */
export function saveOutcome(saved: number, failed: number): SaveOutcome {
  if (failed === 0) return 'saved';
  return saved === 0 ? 'failed' : 'partial';
}

/** Log clearing defaults to one month before now. */
export function oneMonthAgo(now: Date): Date {
  const date = new Date(now);
  date.setMonth(date.getMonth() - 1);
  return date;
}

/** `YYYY-MM-DDTHH:mm` in local time, what a datetime-local input holds. */
export function toDateTimeLocal(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

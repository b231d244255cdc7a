import { secretForms } from './secret-forms';
import { FormSearch } from './secret-search';
import { SecretStream } from './secret-stream';

/**
 * Masks a set of secrets, in every spelling `secretForms` lists, in what an upstream answered
 * (texts, bytes, parsed JSON, streams) before it reaches a client, an event, a log or a notice.
 * A text that ends with the beginning of a secret (cut by a length limit) has that end masked.
 */
export class SecretScrubber {
  /** Masks nothing (a channel without a key long enough to be a secret). */
  static readonly NONE = new SecretScrubber([]);

  private readonly search: FormSearch;

  /** `forms`: longest first, so a whole key is masked before one of its parts. */
  private constructor(private readonly forms: readonly string[]) {
    this.search = new FormSearch(forms.map((form) => Buffer.from(form, 'utf8')));
  }

  static of(secrets: Iterable<string>): SecretScrubber {
    const forms = new Set<string>();
    for (const secret of secrets) for (const form of secretForms(secret)) forms.add(form);
    if (forms.size === 0) return SecretScrubber.NONE;
    return new SecretScrubber([...forms].sort((a, b) => b.length - a.length));
  }

  /** Both sets of secrets. */
  with(other: SecretScrubber): SecretScrubber {
    if (other.forms.length === 0) return this;
    if (this.forms.length === 0) return other;
    const forms = new Set([...this.forms, ...other.forms]);
    return new SecretScrubber([...forms].sort((a, b) => b.length - a.length));
  }

  get active(): boolean {
    return this.forms.length > 0;
  }

  text(text: string): string {
    if (this.forms.length === 0 || text === '') return text;
    const data = Buffer.from(text, 'utf8');
    const masked = this.bytes(data);
    return masked === data ? text : masked.toString('utf8');
  }

  /** `data` itself when it holds no secret. */
  bytes(data: Buffer): Buffer {
    if (this.forms.length === 0) return data;
    return this.search.maskCutTail(this.search.mask(data));
  }

  /** Every string of a parsed JSON value scrubbed (a task DTO, an error object). */
  json<T>(value: T): T {
    if (this.forms.length === 0) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, item]) => [
        name,
        this.walk(item),
      ]),
    );
  }

  /** A scrubber for one forwarded stream (it holds a split secret's beginning between chunks). */
  stream(): SecretStream {
    return new SecretStream(this.search);
  }
}

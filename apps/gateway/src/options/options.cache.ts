import { Inject, Injectable } from '@nestjs/common';
import type { RecordedEvent } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import {
  defaultOptionValues,
  isSecretOption,
  type OptionsEvent,
  type SealedSecret,
  upcastOptionEvent,
} from '@tollgate/domain';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { SecretBox } from '../infrastructure/secret-box';
import { OPTIONS, type OptionDocument } from './options.projection';

/**
 * Hot cache of every option's current value (secrets decrypted, in memory only). Loaded from the
 * read model at start, then fed synchronously with each batch the options projection applies, so it
 * is current by the time a command's read-your-writes wait returns.
 */
@Injectable()
export class OptionsCache {
  private values: Record<string, string> = defaultOptionValues();

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
  ) {}

  async load(): Promise<void> {
    const next = defaultOptionValues();
    for (const doc of await this.readStore.collection<OptionDocument>(OPTIONS).find({})) {
      if (isSecretOption(doc.key)) next[doc.key] = this.reveal(doc.sealed ?? null);
      else if (doc.value !== undefined) next[doc.key] = doc.value;
    }
    this.values = next;
  }

  apply(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      const event = upcastOptionEvent({ type: recorded.type, data: recorded.data } as OptionsEvent);
      if (!event) continue;
      this.values[event.data.key] =
        event.type === 'OptionChanged' ? event.data.value : this.reveal(event.data.sealed);
    }
  }

  private reveal(sealed: SealedSecret | null): string {
    return sealed ? this.secretBox.open(sealed) : '';
  }

  get(key: string): string {
    return this.values[key] ?? '';
  }

  bool(key: string): boolean {
    return this.get(key) === 'true';
  }

  number(key: string): number {
    const n = Number(this.get(key));
    return Number.isFinite(n) ? n : 0;
  }

  json<T>(key: string, fallback: T): T {
    try {
      return JSON.parse(this.get(key)) as T;
    } catch {
      return fallback;
    }
  }

  /** Every key with its value, secrets included: callers decide what may leave the process. */
  entries(): Array<[string, string]> {
    return Object.entries(this.values);
  }
}

import { Injectable } from '@nestjs/common';
import { isSecretOption, OPTION_CATALOGUE } from '@tollgate/domain';
import { SecretScrubber } from '@tollgate/relay';
import { OptionsCache } from './options.cache';

/** SMTPToken, the OAuth client secrets, the payment keys, the bot tokens… */
const SECRET_OPTIONS = Object.keys(OPTION_CATALOGUE).filter(isSecretOption);

/**
 * The gateway's own secrets (the secret options) masked in what their providers answer: an OAuth
 * provider's error text, a payment provider's error, before it is logged, recorded or answered.
 * The scrubber is rebuilt when one of them changes.
 */
@Injectable()
export class GatewaySecrets {
  private fingerprint = '';
  private scrubber = SecretScrubber.NONE;

  constructor(private readonly options: OptionsCache) {}

  scrub(text: string): string {
    return this.current().text(text);
  }

  private current(): SecretScrubber {
    const values = SECRET_OPTIONS.map((key) => this.options.get(key));
    const fingerprint = values.join('\n');
    if (fingerprint !== this.fingerprint) {
      this.fingerprint = fingerprint;
      this.scrubber = SecretScrubber.of(values);
    }
    return this.scrubber;
  }
}

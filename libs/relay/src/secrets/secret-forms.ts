/**
 * The spellings one secret takes in an upstream's text: as it is, URL-encoded (a query string or
 * a form quoted back), JSON-escaped (a body quoted inside a JSON string), and base64 (Basic auth,
 * a signed token, a dump of the request). A spelling shorter than MIN_SECRET_LENGTH is not a
 * secret: masking it would mangle ordinary text (a region, an app id) and hide nothing.
 */
export const MIN_SECRET_LENGTH = 8;

/** The base64 digits fully made of the secret's bits when it starts `offset` bytes into a block. */
function base64Core(secret: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret])
    .toString('base64')
    .replace(/=+$/, '');
  // A digit carries 6 bits: those mixed with the bytes before or after the secret are left out.
  const first = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + secret.length) * 8) / 6);
  return encoded.slice(first, end);
}

const urlAlphabet = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * Every spelling of `secret` to look for, longest first, none shorter than MIN_SECRET_LENGTH. The
 * base64 forms are the digits that stay the same wherever the secret sits in an encoded text
 * (three byte offsets, the standard and the URL-safe alphabet), so `user:secret` in Basic auth or
 * the secret inside a base64 dump is found too.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const forms = new Set<string>([secret, encodeURIComponent(secret)]);
  forms.add(new URLSearchParams({ s: secret }).toString().slice('s='.length));
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replace(/\//g, '\\/'));
  const bytes = Buffer.from(secret, 'utf8');
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    forms.add(core);
    forms.add(urlAlphabet(core));
  }
  return [...forms]
    .filter((form) => form.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

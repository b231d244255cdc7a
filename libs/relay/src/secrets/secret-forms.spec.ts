import { MIN_SECRET_LENGTH, secretForms } from './secret-forms';

const KEY = 'sk-proj-Ab3/De+Fg9=Hi_Jk~Lm"No';

describe('secretForms', () => {
  it('lists nothing for a text too short to be a secret', () => {
    expect(secretForms('us-east')).toEqual([]);
    expect(secretForms('x'.repeat(MIN_SECRET_LENGTH))).toContain('x'.repeat(MIN_SECRET_LENGTH));
  });

  it('has the secret as it is, URL-encoded, form-encoded and JSON-escaped', () => {
    const forms = secretForms(KEY);
    expect(forms).toEqual(
      expect.arrayContaining([
        KEY,
        encodeURIComponent(KEY),
        new URLSearchParams({ q: KEY }).toString().slice(2),
        JSON.stringify(KEY).slice(1, -1),
      ]),
    );
    expect(secretForms('a/b/c/d/e/f')).toContain('a\\/b\\/c\\/d\\/e\\/f');
  });

  it('lists the longest first (a whole key is masked before its parts)', () => {
    const lengths = secretForms(KEY).map((form) => form.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
  });

  it.each([0, 1, 2, 3, 4, 5])(
    'finds the secret in base64 whatever comes before it (%i bytes)',
    (before) => {
      const forms = secretForms(KEY);
      const text = Buffer.from(`${'u'.repeat(before)}:${KEY}@host`);
      for (const encoded of [text.toString('base64'), text.toString('base64url')])
        expect(forms.some((form) => encoded.includes(form))).toBe(true);
    },
  );

  it('base64 forms hold only digits made of the secret (no false start or end)', () => {
    const forms = secretForms('abcdefghij');
    // Any neighbour bytes: the same digits must still be found.
    for (const [before, after] of [
      ['\x00', '\x00'],
      ['\xff', '\xff'],
      ['Z', 'Q'],
    ] as const) {
      const encoded = Buffer.from(`${before}abcdefghij${after}`, 'latin1').toString('base64');
      expect(forms.some((form) => encoded.includes(form))).toBe(true);
    }
  });
});

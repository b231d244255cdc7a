import { pickIndexVariant, type ConsoleIndex } from './console-index';

const index: ConsoleIndex = {
  variants: new Map([
    ['identity', Buffer.from('plain')],
    ['br', Buffer.from('brotli')],
    ['gzip', Buffer.from('gzip')],
  ]),
};

describe('pickIndexVariant', () => {
  it('prefers brotli, then gzip, then the file itself', () => {
    expect(pickIndexVariant(index, 'gzip, deflate, br').encoding).toBe('br');
    expect(pickIndexVariant(index, 'gzip').encoding).toBe('gzip');
    expect(pickIndexVariant(index, undefined).encoding).toBe('identity');
    expect(pickIndexVariant(index, '*').encoding).toBe('br');
  });

  it('honours q=0 and falls back when a copy is missing', () => {
    expect(pickIndexVariant(index, 'br;q=0, gzip;q=0.5').encoding).toBe('gzip');
    const onlyPlain: ConsoleIndex = { variants: new Map([['identity', Buffer.from('x')]]) };
    expect(pickIndexVariant(onlyPlain, 'br, gzip')).toEqual({
      encoding: 'identity',
      body: Buffer.from('x'),
    });
  });
});

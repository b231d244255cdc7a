import { vi } from 'vitest';

/** A working async clipboard for jsdom (which has none); returns what was written, in order. */
export function stubClipboard(): { written: string[] } {
  const written: string[] = [];
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(window.navigator, 'clipboard', {
    configurable: true,
    value: { writeText: vi.fn(async (text: string) => void written.push(text)) },
  });
  return { written };
}

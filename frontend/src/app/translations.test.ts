import { describe, expect, it } from 'vitest';
import { translations } from './translations';

// The type makes en match zh-CN at compile time; this checks the built objects themselves (a key
// emptied by mistake, a placeholder that one language forgot) — what a user would see as a raw key
// or a `{{count}}` left in the text.

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of leaves(value, path)) out.set(inner, text);
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('console locales', () => {
  const zh = leaves(translations['zh-CN']);
  const english = leaves(translations.en);

  it('zh-CN and en have the same keys', () => {
    expect(zh.size).toBeGreaterThan(500);
    expect([...english.keys()].sort()).toEqual([...zh.keys()].sort());
  });

  it('no text is empty', () => {
    const empty = [...zh, ...english].filter(([, text]) => text.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('both languages fill the same placeholders', () => {
    const differing = [...zh]
      .filter(([key, text]) => {
        const other = english.get(key);
        return other !== undefined && placeholders(other).join() !== placeholders(text).join();
      })
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it('every zh-CN text is Chinese or a name that stays as it is', () => {
    // A text left in English in the zh-CN file shows untranslated to a Chinese user.
    const latinOnly = [...zh]
      .filter(
        ([key, text]) =>
          /[a-z]{4,}\s+[a-z]{3,}/i.test(text) &&
          !/[\u4e00-\u9fff]/.test(text) &&
          english.get(key) !== text,
      )
      .map(([key, text]) => `${key}: ${text}`);
    expect(latinOnly).toEqual([]);
  });
});

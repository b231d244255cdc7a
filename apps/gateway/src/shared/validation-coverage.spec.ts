import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { translate } from './i18n/messages';
import { RULE_NAMES, validationMessages } from './validation.pipe';

/** Every `*.dto.ts` of the gateway: loading them registers their rules with class-validator. */
function dtoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return dtoFiles(path);
    return entry.name.endsWith('.dto.ts') ? [path] : [];
  });
}

/** The constraint names the DTOs declare, as they appear in a ValidationError's `constraints`. */
function declaredConstraintNames(): Map<string, string[]> {
  const storage = getMetadataStorage();
  const byTarget = (
    storage as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> }
  ).validationMetadatas;
  const names = new Map<string, string[]>();
  for (const metadatas of byTarget.values()) {
    for (const rule of metadatas) {
      // ValidateIf (our Optional) only decides whether the others run: it never fails.
      if (rule.type === 'conditionalValidation') continue;
      const name =
        rule.type === 'customValidation'
          ? storage.getTargetValidatorConstraints(rule.constraintCls)[0]?.name
          : rule.type;
      const where = `${(rule.target as { name?: string }).name ?? '?'}.${rule.propertyName}`;
      const key = name ?? `<unnamed ${rule.type}>`;
      names.set(key, [...(names.get(key) ?? []), where]);
    }
  }
  return names;
}

/** A failure of `name` as class-validator reports it: with its own English text. */
function failure(name: string, target: object): ValidationError {
  return {
    property: 'field',
    value: 'bad',
    target,
    constraints: { [name]: `field must satisfy ${name} (class-validator's English)` },
    children: [],
  };
}

const CJK = /[\u4e00-\u9fff]/;

describe('validation messages cover every rule the DTOs declare', () => {
  const files = dtoFiles(join(__dirname, '..'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading is the point
  for (const file of files) require(file);
  const declared = declaredConstraintNames();

  it('finds the DTOs and their rules', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const name of ['isString', 'isInt', 'maxLength', 'min', 'max', 'isIn'])
      expect(declared.has(name)).toBe(true);
  });

  it('each declared rule has a text of its own (not the catch-all), in zh-CN and en', () => {
    const uncovered = [...declared].filter(
      ([name]) => name !== 'whitelistValidation' && !RULE_NAMES.includes(name),
    );
    expect(uncovered).toEqual([]);
  });

  it("no rule lets class-validator's English through: the zh-CN answer is Chinese", () => {
    const target = new (class Probe {})();
    for (const name of declared.keys()) {
      const messages = validationMessages([failure(name, target)]);
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) {
        const zh = translate(message.code, message.params, 'zh-CN');
        expect({ name, zh, cjk: CJK.test(zh) }).toEqual({ name, zh, cjk: true });
        expect(zh).not.toMatch(/must|should|class-validator/);
        expect(translate(message.code, message.params, 'en')).not.toMatch(/class-validator/);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  addCustomModels,
  emptyChannelForm,
  formToRequest,
  validateChannelForm,
  withType,
} from './channel-form';
import { normalizeChannelNumber } from './channel-numbers';

const filled = { ...emptyChannelForm(), name: 'main', key: 'sk-1', models: ['gpt-4o'] };

describe('channel form rules', () => {
  it('clamps priority at -999 and weight at 0, ignores empty values, drops fractions', () => {
    expect(normalizeChannelNumber('-5000', -999)).toBe(-999);
    expect(normalizeChannelNumber(-3, 0)).toBe(0);
    expect(normalizeChannelNumber('', 0)).toBeNull();
    expect(normalizeChannelNumber('-', -999)).toBeNull();
    expect(normalizeChannelNumber('7.9', 0)).toBe(7);
    expect(normalizeChannelNumber('abc', 0)).toBeNull();
  });

  it('needs name and key on create, only the name on edit', () => {
    expect(validateChannelForm({ ...filled, key: '  \n ' }, 'create')?.message).toBe(
      'channels.validation.nameAndKeyRequired',
    );
    expect(validateChannelForm({ ...filled, key: '' }, 'edit')).toBeNull();
    expect(validateChannelForm({ ...filled, name: ' ' }, 'edit')?.message).toBe(
      'channels.validation.nameAndKeyRequired',
    );
  });

  it('checks every key line against its type format', () => {
    const baidu = { ...filled, type: 15, key: 'a|b\nc' };
    expect(validateChannelForm(baidu, 'create')).toEqual({
      message: 'channels.validation.keyFormat',
      format: 'APIKey|SecretKey',
      field: 'key',
    });
    expect(validateChannelForm({ ...baidu, key: 'a|b\nc|d' }, 'create')).toBeNull();
    expect(validateChannelForm({ ...filled, type: 41, key: '{oops' }, 'create')?.message).toBe(
      'channels.validation.keyJson',
    );
  });

  it('wants JSON objects for the mappings, the settings and the Vertex regions', () => {
    expect(validateChannelForm({ ...filled, model_mapping: '[1]' }, 'create')?.message).toBe(
      'channels.validation.modelMappingJson',
    );
    expect(
      validateChannelForm({ ...filled, status_code_mapping: '{"400":' }, 'create')?.message,
    ).toBe('channels.validation.statusCodeMappingJson');
    expect(validateChannelForm({ ...filled, param_override: '[1]' }, 'create')?.message).toBe(
      'channels.validation.paramOverrideJson',
    );
    expect(validateChannelForm({ ...filled, setting: 'x' }, 'create')?.message).toBe(
      'channels.validation.settingJson',
    );
    const vertex = { ...filled, type: 41, key: '{"type":"service_account"}', other: 'us' };
    expect(validateChannelForm(vertex, 'create')?.message).toBe('channels.validation.otherJson');
  });

  it('fills the type default of other, and replaces only a default', () => {
    const azure = withType(emptyChannelForm(), 3);
    expect(azure.other).toBe('2023-06-01-preview');
    expect(withType(azure, 18).other).toBe('v2.1');
    expect(withType({ ...azure, other: '2024-02-01' }, 18).other).toBe('2024-02-01');
    expect(withType(azure, 1).other).toBe('');
    // Left empty, the request still carries the default.
    expect(formToRequest({ ...filled, type: 3, other: '' }).other).toBe('2023-06-01-preview');
  });

  it('strips trailing slashes and leaves empty numbers out of the request', () => {
    const body = formToRequest({
      ...filled,
      base_url: 'https://x.test//',
      priority: '',
      weight: -2,
    });
    expect(body.base_url).toBe('https://x.test');
    expect(body).not.toHaveProperty('priority');
    expect(body.weight).toBe(0);
  });

  it('adds custom models unless one already exists', () => {
    expect(addCustomModels(['a'], ' b, c ,b')).toEqual({ models: ['a', 'b', 'c'] });
    expect(addCustomModels(['a'], 'b,a')).toEqual({ duplicate: true });
    expect(addCustomModels(['a'], ' , ')).toBeNull();
  });
});

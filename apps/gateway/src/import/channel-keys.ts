import { channelTypeInfo } from '@tollgate/contracts';
import type { RowNotes } from './row-notes';
import type { SourceProject } from './source-database';
import { parseObject, text } from './row-values';

/** A channels row's keys (one channel each) and its `other` field, in new-api's places. */
export interface ChannelKeys {
  readonly keys: readonly string[];
  readonly other: string;
}

/**
 * The row's keys and `other`: one-api's `config` fields moved where new-api keeps them (the AWS
 * and Vertex credentials become the key), and a bare Vertex region written as Tollgate's region JSON.
 */
export function channelKeysOf(
  project: SourceProject,
  type: number,
  row: Readonly<Record<string, unknown>>,
  notes: RowNotes,
): ChannelKeys {
  const config = configOf(row, notes);
  let keyed: ChannelKeys = {
    keys: splitKeys(text(row['key']), type, notes),
    other: text(row['other']),
  };
  if (project === 'one-api') keyed = movedOneApiConfig(type, config, keyed, notes);
  if (type === 41 && keyed.other !== '' && parseObject(keyed.other) === null) {
    // new-api accepts a bare region too; Tollgate's Vertex `other` is the region JSON.
    notes.changed('other', 'a bare region: written as {"default": region}');
    keyed = { ...keyed, other: JSON.stringify({ default: keyed.other }) };
  }
  return keyed;
}

/** one-api's `config` JSON ({} when absent or not valid, reported). */
function configOf(
  row: Readonly<Record<string, unknown>>,
  notes: RowNotes,
): Record<string, unknown> {
  const configText = text(row['config']);
  if (configText === '') return {};
  const parsed = parseObject(configText);
  if (parsed) return parsed;
  notes.dropped('config', 'not valid JSON');
  return {};
}

/**
 * Key: one per channel (new-api and Tollgate alike); a JSON key (Vertex) stays whole. Several
 * lines are several channels: the row's own takes the first key, each other distinct line one
 * more channel.
 */
function splitKeys(key: string, type: number, notes: RowNotes): string[] {
  if (channelTypeInfo(type)?.jsonKey) return [key];
  const lines = key
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const keys = [...new Set(lines)];
  const repeated = lines.length - keys.length;
  if (repeated > 0)
    notes.dropped(
      'key',
      `${repeated} repeated ${repeated === 1 ? 'line' : 'lines'}: each distinct key is imported once`,
    );
  return keys;
}

/** one-api kept some types' settings in `config`; new-api keeps them in `other` or the key. */
function movedOneApiConfig(
  type: number,
  config: Readonly<Record<string, unknown>>,
  keyed: ChannelKeys,
  notes: RowNotes,
): ChannelKeys {
  const cfg = (name: string) => text(config[name]);
  let { keys, other } = keyed;
  const moveToOther = (field: string) => {
    const value = cfg(field);
    if (value !== '' && value !== other) {
      other = value;
      notes.changed('other', `config.${field} moved to other`);
    }
  };
  switch (type) {
    case 3: // Azure
    case 18: // Xunfei
    case 24: // Gemini
      moveToOther('api_version');
      break;
    case 17: // Ali
      moveToOther('plugin');
      break;
    case 21: // AIProxy library
      moveToOther('library_id');
      break;
    case 39: // Cloudflare: the account id
      moveToOther('user_id');
      break;
    case 33: {
      // AWS: config {ak, sk, region} → key `ak|sk|region`.
      const [ak, sk, region] = [cfg('ak'), cfg('sk'), cfg('region')];
      if (ak && sk && region) {
        keys = [`${ak}|${sk}|${region}`];
        notes.changed(
          'key',
          'config.ak, config.sk and config.region joined as the key ak|sk|region',
        );
      }
      break;
    }
    case 41:
      return movedVertexConfig(cfg, { keys, other }, notes);
  }
  return { keys, other };
}

/** Vertex: the service-account JSON becomes the key, the region the `other` JSON. */
function movedVertexConfig(
  cfg: (name: string) => string,
  keyed: ChannelKeys,
  notes: RowNotes,
): ChannelKeys {
  let { keys, other } = keyed;
  const adc = cfg('vertex_ai_adc');
  if (adc !== '') {
    keys = [adc];
    notes.changed('key', 'config.vertex_ai_adc (service-account JSON) is the key');
  }
  const region = cfg('region');
  if (region !== '') {
    other = JSON.stringify({ default: region });
    notes.changed('other', 'config.region moved to other as {"default": region}');
  }
  const projectId = cfg('vertex_ai_project_id');
  const inKey = parseObject(keys[0] ?? '')?.['project_id'];
  if (projectId !== '' && projectId !== inKey)
    notes.dropped(
      'config.vertex_ai_project_id',
      "the project is read from the service-account JSON's project_id",
    );
  return { keys, other };
}

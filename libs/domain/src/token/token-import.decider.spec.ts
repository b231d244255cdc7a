import { spec } from '@tollgate/testing';
import type { ImportSource } from '../shared/import-source';
import { tokenDecider } from './token.decider';
import type { TokenEvent, TokenImported } from './token.events';

const source: ImportSource = {
  project: 'one-api',
  table: 'tokens',
  rowId: 5,
  importedAt: '2026-01-15T08:00:00.000Z',
};
const facts = (over: Partial<TokenImported['data']> = {}): TokenImported['data'] => ({
  tokenId: 5,
  userId: 2,
  sealedKey: { cipher: 'cipher', hash: 'keyed' },
  keyHash: 'sha',
  createdTime: 1_700_000_000,
  status: 1,
  usedQuota: 200,
  deleted: false,
  name: 'limited',
  expiredTime: -1,
  remainQuota: 800_000,
  unlimitedQuota: false,
  modelLimitsEnabled: true,
  modelLimits: ['gpt-4o-mini', 'gpt-4o'],
  allowIps: ['127.0.0.0/8'],
  group: '',
  rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  source,
  ...over,
});
const imported = (over: Partial<TokenImported['data']> = {}): TokenEvent => ({
  type: 'TokenImported',
  data: facts(over),
});

describe('tokenDecider ImportToken', () => {
  it('takes a token over as TokenImported with its key, limits and usage', () => {
    spec(tokenDecider).given([]).when({ type: 'ImportToken', token: facts() }).then([imported()]);
  });

  it('decides nothing for the same token again (a resumed or repeated import)', () => {
    spec(tokenDecider)
      .given([imported()])
      .when({ type: 'ImportToken', token: facts({ name: 'renamed' }) })
      .then([]);
  });

  it.each([
    [3, 'expired'],
    [4, 'exhausted'],
    [2, 'disabled'],
  ])('keeps status %i (%s) as the source had it', (status) => {
    spec(tokenDecider)
      .given([])
      .when({ type: 'ImportToken', token: facts({ status }) })
      .then([imported({ status })]);
  });

  it('imports a token deleted at the source as deleted', () => {
    spec(tokenDecider)
      .given([])
      .when({ type: 'ImportToken', token: facts({ deleted: true }) })
      .then([imported({ deleted: true })]);
  });

  it('refuses a token id that holds another token', () => {
    spec(tokenDecider)
      .given([imported({ tokenId: 6 })])
      .when({ type: 'ImportToken', token: facts() })
      .thenRejects('token.already_exists');
  });

  it.each<[string, Partial<TokenImported['data']>]>([
    ['an unknown status', { status: 7 }],
    ['status 0', { status: 0 }],
    ['a fractional used quota', { usedQuota: 1.5 }],
  ])('refuses %s', (_name, over) => {
    spec(tokenDecider)
      .given([])
      .when({ type: 'ImportToken', token: facts(over) })
      .thenRejects('token.status_invalid');
  });
});

import { describe, expect, it } from 'vitest';
import {
  acceptSaved,
  changedOptions,
  changeProblems,
  fieldProblem,
  rebase,
  saveOutcome,
  wireValue,
  type FieldSpec,
} from './option-form';

const FIELDS: FieldSpec[] = [
  { key: 'ServerAddress', kind: 'address' },
  { key: 'SMTPToken', kind: 'secret' },
  { key: 'SystemName', kind: 'text' },
];

describe('option form', () => {
  it('lists changes in field order; blank secrets are not changes', () => {
    const baseline = { ServerAddress: 'https://a.example', SMTPToken: '', SystemName: 'T' };
    expect(changedOptions(FIELDS, { baseline, values: baseline })).toEqual([]);
    expect(
      changedOptions(FIELDS, {
        baseline,
        values: { ServerAddress: 'https://a.example/', SMTPToken: '  ', SystemName: 'U' },
      }),
    ).toEqual([{ key: 'SystemName', value: 'U' }]);
    expect(changedOptions(FIELDS, { baseline, values: { ...baseline, SMTPToken: 'tok' } })).toEqual(
      [{ key: 'SMTPToken', value: 'tok' }],
    );
  });

  it('trims trailing slashes from addresses', () => {
    expect(wireValue({ key: 'WorkerUrl', kind: 'address' }, ' https://w.example/// ')).toBe(
      'https://w.example',
    );
  });

  it('keeps edits when new server values arrive, follows the server elsewhere', () => {
    const previous = {
      baseline: { SystemName: 'A', Logo: '/a.png' },
      values: { SystemName: 'typed', Logo: '/a.png' },
    };
    expect(rebase(previous, { SystemName: 'B', Logo: '/b.png' })).toEqual({
      baseline: { SystemName: 'B', Logo: '/b.png' },
      values: { SystemName: 'typed', Logo: '/b.png' },
    });
  });

  it('checks JSON shapes and number bounds', () => {
    expect(fieldProblem({ key: 'GroupRatio', kind: 'json' }, '[]')).toEqual({
      code: 'invalidJson',
    });
    expect(fieldProblem({ key: 'Chats', kind: 'json' }, '[{"a":"b"}]')).toBeNull();
    expect(fieldProblem({ key: 'TopupGroupRatio', kind: 'json' }, '{')).toEqual({
      code: 'topupGroupRatioInvalidJson',
    });
    const interval: FieldSpec = {
      key: 'DataExportInterval',
      kind: 'number',
      min: 1,
      integer: true,
    };
    expect(fieldProblem(interval, '0')).toEqual({ code: 'belowMinimum', min: 1 });
    expect(fieldProblem(interval, '1.5')).toEqual({ code: 'notANumber' });
    expect(fieldProblem(interval, '5')).toBeNull();
  });

  it('given changes, when one is below its minimum, then only that one has a problem', () => {
    const fields: FieldSpec[] = [
      { key: 'DataExportInterval', kind: 'number', min: 1, integer: true },
      { key: 'SystemName', kind: 'text' },
    ];
    const changes = [
      { key: 'DataExportInterval', value: '0' },
      { key: 'SystemName', value: 'T' },
    ] as const;
    expect(changeProblems(fields, changes)).toEqual({
      DataExportInterval: { code: 'belowMinimum', min: 1 },
    });
  });

  it('given a save, when the server took some keys, then they become the baseline and secrets blank', () => {
    const previous = {
      baseline: { SystemName: 'A', SMTPToken: '', ServerAddress: 'https://a.example' },
      values: { SystemName: 'B', SMTPToken: 'tok', ServerAddress: 'https://b.example' },
    };
    const sent = [
      { key: 'SystemName', value: 'B' },
      { key: 'SMTPToken', value: 'tok' },
      { key: 'ServerAddress', value: 'https://b.example' },
    ] as const;
    expect(acceptSaved(previous, FIELDS, ['SystemName', 'SMTPToken'], sent)).toEqual({
      baseline: { SystemName: 'B', SMTPToken: '', ServerAddress: 'https://a.example' },
      values: { SystemName: 'B', SMTPToken: '', ServerAddress: 'https://b.example' },
    });
  });

  it('sums up a save: all saved, none saved, or some', () => {
    expect([saveOutcome(2, 0), saveOutcome(0, 2), saveOutcome(1, 1)]).toEqual([
      'saved',
      'failed',
      'partial',
    ]);
  });
});

import { plainToInstance } from 'class-transformer';
import { IsInt, IsString, validateSync } from 'class-validator';
import { Optional, ToInt } from './dto-fields';

class Sample {
  @Optional() @IsString() name?: string;
  @Optional() @ToInt() @IsInt() count?: number;
}

const errorsFor = (plain: object) =>
  validateSync(plainToInstance(Sample, plain)).map((e) => e.property);

describe('DTO fields', () => {
  it('Optional: absent skips the rules; a null reaching it is refused (the pipe drops nulls first)', () => {
    expect(errorsFor({})).toEqual([]);
    expect(errorsFor({ name: null })).toEqual(['name']);
    expect(errorsFor({ name: 'x' })).toEqual([]);
  });

  it('ToInt: JSON integers and plain decimal text only', () => {
    expect(errorsFor({ count: 7 })).toEqual([]);
    expect(errorsFor({ count: '42' })).toEqual([]);
    expect(plainToInstance(Sample, { count: '42' }).count).toBe(42);
    for (const odd of [
      '1e3',
      '0x10',
      '0b1',
      ' 1',
      '',
      '1.5',
      'NaN',
      true,
      [1],
      { n: 1 },
      null,
      1.5,
    ])
      expect({ odd, errors: errorsFor({ count: odd }) }).toEqual({ odd, errors: ['count'] });
  });
});

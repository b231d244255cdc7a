import { createHash } from 'node:crypto';
import { epaySign, epayVerify } from './epay-signature';

describe('Epay signature', () => {
  const params = {
    pid: '1001',
    type: 'alipay',
    out_trade_no: 'USR1NOabc',
    money: '7.30',
    name: 'TUC1',
    empty: '',
    sign_type: 'MD5',
  };

  it('signs the sorted non-empty params without sign/sign_type, key appended, MD5 lower-case', () => {
    const expected = createHash('md5')
      .update('money=7.30&name=TUC1&out_trade_no=USR1NOabc&pid=1001&type=alipaySECRET')
      .digest('hex');
    expect(epaySign(params, 'SECRET')).toBe(expected);
    expect(epaySign({ ...params, sign: 'whatever' }, 'SECRET')).toBe(expected);
  });

  it('verifies a good signature (any case) and refuses a bad, missing or altered one', () => {
    const sign = epaySign(params, 'SECRET');
    expect(epayVerify({ ...params, sign }, 'SECRET')).toBe(true);
    expect(epayVerify({ ...params, sign: sign.toUpperCase() }, 'SECRET')).toBe(true);
    expect(epayVerify({ ...params, sign }, 'OTHER')).toBe(false);
    expect(epayVerify({ ...params, money: '0.01', sign }, 'SECRET')).toBe(false);
    expect(epayVerify(params, 'SECRET')).toBe(false);
    expect(epayVerify({ ...params, sign: 'zz' }, 'SECRET')).toBe(false);
  });
});

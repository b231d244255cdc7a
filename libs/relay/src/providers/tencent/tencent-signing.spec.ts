import { tc3Authorization, tc3Date } from './tencent-signing';

describe('tc3Authorization', () => {
  it("reproduces the signature of Tencent's documented example (CVM DescribeInstances)", () => {
    // The example's credentials are published masked; the documented signature was computed with
    // the masked strings, so they are used as they are.
    expect(
      tc3Authorization({
        secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
        secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
        service: 'cvm',
        host: 'cvm.tencentcloudapi.com',
        contentType: 'application/json; charset=utf-8',
        payload:
          '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
        timestamp: 1551113065,
      }),
    ).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('scopes by the UTC date, not the local one, and changes with the payload', () => {
    expect(tc3Date(1551113065)).toBe('2019-02-25'); // 2019-02-26 00:44:25 in Beijing
    const base = {
      secretId: 'id',
      secretKey: 'key',
      service: 'hunyuan',
      host: 'hunyuan.tencentcloudapi.com',
      contentType: 'application/json',
      timestamp: 1700000000,
    };
    const a = tc3Authorization({ ...base, payload: '{"a":1}' });
    expect(a).toMatch(
      /^TC3-HMAC-SHA256 Credential=id\/2023-11-14\/hunyuan\/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$/,
    );
    expect(tc3Authorization({ ...base, payload: '{"a":2}' })).not.toBe(a);
  });
});

import { generateKeyPairSync } from 'node:crypto';
import type { AttemptFailure } from '../routing/failure-policy';
import { channelKeySecrets, channelScrubber, scrubFailure } from './channel-secrets';
import { SecretScrubber } from './secret-scrubber';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PEM_LINES = PEM.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
const SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  project_id: 'tollgate-test',
  private_key_id: '0123456789abcdef0123456789abcdef01234567',
  private_key: PEM,
  client_email: 'relay@tollgate-test.iam.gserviceaccount.com',
  client_id: '112233445566778899001',
  token_uri: 'https://oauth2.googleapis.com/token',
});

describe('channelKeySecrets: what each key format holds that is secret', () => {
  it.each<[string, number, string, string[], string[]]>([
    ['OpenAI: the key', 1, 'sk-abcdefgh12345678', ['sk-abcdefgh12345678'], []],
    [
      'several keys in the field: each line',
      1,
      'sk-first-1234567\r\nsk-second-7654321\n',
      ['sk-first-1234567', 'sk-second-7654321'],
      [],
    ],
    [
      'Baidu APIKey|SecretKey: both',
      15,
      'baiduApiKey123|baiduSecretKey456',
      ['baiduApiKey123', 'baiduSecretKey456'],
      [],
    ],
    [
      'Xunfei APPID|APISecret|APIKey: not the APPID',
      18,
      'a1b2c3d4e5|sparkSecret0123|sparkKey456789',
      ['sparkSecret0123', 'sparkKey456789'],
      ['a1b2c3d4e5'],
    ],
    [
      'Tencent AppId|SecretId|SecretKey: not the AppId',
      23,
      '1300000001|AKIDsecretId0123|tencentSecretKey9',
      ['AKIDsecretId0123', 'tencentSecretKey9'],
      ['1300000001'],
    ],
    [
      'Bedrock Ak|Sk|Region: not the region',
      33,
      'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1',
      ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
      ['us-east-1'],
    ],
    [
      'Bedrock with a session token',
      33,
      'ASIAEXAMPLEKEYID0001|secretAccessKey0001|eu-west-3|FwoGZXIvYXdzEBYaDsessiontoken',
      ['ASIAEXAMPLEKEYID0001', 'secretAccessKey0001', 'FwoGZXIvYXdzEBYaDsessiontoken'],
      ['eu-west-3'],
    ],
    [
      'FastGPT APIKey-AppId: not the AppId',
      22,
      'fastgpt-k3y0123456789-6512ab34cd',
      ['fastgpt-k3y0123456789'],
      ['6512ab34cd'],
    ],
    [
      'Zhipu v3 id.secret: both',
      16,
      'a1b2c3d4e5f60718.s3cr3tPartOfKey',
      ['a1b2c3d4e5f60718', 's3cr3tPartOfKey'],
      [],
    ],
    [
      'a type the table does not know: every part',
      999,
      'firstPart123|secondPart456',
      ['firstPart123', 'secondPart456'],
      [],
    ],
  ])('%s', (_, type, key, secret, notSecret) => {
    const secrets = channelKeySecrets(type, key);
    expect(secrets).toContain(key.trim());
    expect(secrets).toEqual(expect.arrayContaining(secret));
    for (const part of notSecret) expect(secrets).not.toContain(part);
  });

  it('Vertex AI service account: the private key line by line and its id, not the names', () => {
    const secrets = channelKeySecrets(41, SERVICE_ACCOUNT);
    expect(secrets).toContain(SERVICE_ACCOUNT);
    expect(secrets).toEqual(
      expect.arrayContaining([...PEM_LINES, '0123456789abcdef0123456789abcdef01234567']),
    );
    expect(secrets).not.toContain('relay@tollgate-test.iam.gserviceaccount.com');
    expect(secrets).not.toContain('tollgate-test');
  });

  it('an empty key holds nothing', () => {
    expect(channelKeySecrets(1, '  ')).toEqual([]);
  });
});

describe('channelScrubber: the key in the texts an upstream sends back', () => {
  const bedrock = {
    type: 33,
    key: 'AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|us-east-1',
  };

  it.each<[string, { type: number; key: string }, string, string[], string[]]>([
    [
      'Bedrock: the secret key quoted alone, the region kept',
      bedrock,
      'The request signature we calculated does not match (secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) in us-east-1',
      ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
      ['us-east-1'],
    ],
    [
      'Bedrock: the access key id URL-encoded in a quoted request',
      bedrock,
      `Credential=${encodeURIComponent('AKIAIOSFODNN7EXAMPLE/20260101/us-east-1/bedrock')}`,
      ['AKIAIOSFODNN7EXAMPLE'],
      ['us-east-1'],
    ],
    [
      'Xunfei: its Bearer APIKey:APISecret, in clear and base64',
      { type: 18, key: 'a1b2c3d4|sparkSecret0123|sparkKey456789' },
      `Bearer sparkKey456789:sparkSecret0123 / ${Buffer.from('sparkKey456789:sparkSecret0123').toString('base64')}`,
      ['sparkKey456789', 'sparkSecret0123', 'c3BhcmtLZXk0NTY3ODk6c3BhcmtTZWNyZXQwMTIz'],
      ['Bearer'],
    ],
    [
      'Baidu: the OAuth query string quoted back',
      { type: 15, key: 'baiduApiKey123|baiduSecretKey456' },
      'GET /oauth/2.0/token?grant_type=client_credentials&client_id=baiduApiKey123&client_secret=baiduSecretKey456 failed',
      ['baiduApiKey123', 'baiduSecretKey456'],
      ['grant_type=client_credentials'],
    ],
    [
      'Vertex: the whole key file echoed inside a JSON string',
      { type: 41, key: SERVICE_ACCOUNT },
      JSON.stringify({ error: { message: `bad credentials ${SERVICE_ACCOUNT}` } }),
      PEM_LINES.filter((line) => line.length >= 8),
      ['bad credentials'],
    ],
    [
      'Vertex: the private key quoted with escaped newlines',
      { type: 41, key: SERVICE_ACCOUNT },
      `key: ${JSON.stringify(PEM)}`,
      PEM_LINES.filter((line) => line.length >= 8),
      ['BEGIN PRIVATE KEY'],
    ],
  ])('%s', (_, channel, text, gone, kept) => {
    const masked = channelScrubber(channel).text(text);
    for (const part of gone) expect(masked).not.toContain(part);
    for (const part of kept) expect(masked).toContain(part);
  });

  it('is built once per channel object', () => {
    const channel = { type: 1, key: 'sk-abcdefgh12345678' };
    expect(channelScrubber(channel)).toBe(channelScrubber(channel));
    expect(channelScrubber({ type: 1, key: 'short' })).toBe(SecretScrubber.NONE);
  });
});

describe('scrubFailure', () => {
  const scrubber = SecretScrubber.of(['sk-abcdefgh12345678']);

  it('masks the message, type and code of an answer, the message of a network failure', () => {
    const http: AttemptFailure = {
      kind: 'http',
      status: 401,
      message: 'Incorrect API key provided: sk-abcdefgh12345678',
      type: 'sk-abcdefgh12345678',
      code: 'invalid_api_key',
    };
    expect(scrubFailure(http, scrubber)).toEqual({
      ...http,
      message: 'Incorrect API key provided: ***',
      type: '***',
    });
    expect(
      scrubFailure({ kind: 'network', message: 'ECONNRESET sk-abcdefgh12345678' }, scrubber),
    ).toEqual({ kind: 'network', message: 'ECONNRESET ***' });
    expect(scrubFailure(http, SecretScrubber.NONE)).toBe(http);
  });
});

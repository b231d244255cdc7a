import { BedrockKeyError, parseBedrockKey } from './bedrock-key';

describe('parseBedrockKey', () => {
  it('reads Ak|Sk|Region', () => {
    expect(parseBedrockKey('AKIAEXAMPLE|secret/with+chars|us-east-1')).toEqual({
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/with+chars' },
      region: 'us-east-1',
    });
  });

  it('reads a fourth part as the session token and trims the parts', () => {
    expect(parseBedrockKey(' ASIAEXAMPLE | sk | eu-central-1 | token== \n')).toEqual({
      credentials: { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'sk', sessionToken: 'token==' },
      region: 'eu-central-1',
    });
  });

  it('accepts GovCloud and other multi-word regions', () => {
    expect(parseBedrockKey('a|b|us-gov-west-1').region).toBe('us-gov-west-1');
    expect(parseBedrockKey('a|b|ap-northeast-1').region).toBe('ap-northeast-1');
  });

  it.each([
    ['sk-plain-openai-key', /got 1 part/],
    ['a|b', /got 2 part/],
    ['a|b|c|d|e', /got 5 part/],
    ['|b|us-east-1', /access key id is empty/],
    ['a||us-east-1', /secret access key is empty/],
    ['a|b|', /region is empty/],
    ['a|b|us east 1', /not an AWS region/],
    ['a|b|US-EAST-1', /not an AWS region/],
    ['a|b|us-east-1|', /session token .* is empty/],
    ['a b|c|us-east-1', /may not contain spaces/],
  ])('refuses %j', (key, message) => {
    expect(() => parseBedrockKey(key)).toThrow(BedrockKeyError);
    expect(() => parseBedrockKey(key)).toThrow(message);
  });

  it('never puts the secret in the message', () => {
    expect(() => parseBedrockKey('AKIA|topsecret|nowhere')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('topsecret') }),
    );
  });
});

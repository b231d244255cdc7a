import { GOOGLE_TOKEN_URI, parseVertexKey, VertexConfigError, vertexRegion } from './vertex-key';

const KEY = {
  type: 'service_account',
  project_id: 'my-project',
  private_key_id: 'abc',
  private_key: '-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n',
  client_email: 'relay@my-project.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.example.test/token',
};

describe('parseVertexKey', () => {
  it('reads the service-account members, unescaping a pasted key', () => {
    expect(parseVertexKey(JSON.stringify(KEY))).toEqual({
      clientEmail: 'relay@my-project.iam.gserviceaccount.com',
      privateKey: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
      projectId: 'my-project',
      tokenUri: 'https://oauth2.example.test/token',
    });
  });

  it("defaults the token endpoint to Google's", () => {
    const { token_uri: _uri, ...rest } = KEY;
    expect(parseVertexKey(JSON.stringify(rest)).tokenUri).toBe(GOOGLE_TOKEN_URI);
  });

  it.each([
    ['text', 'not json', /not JSON/],
    ['an array', '[1]', /not a JSON object/],
    ['a user key', JSON.stringify({ ...KEY, type: 'authorized_user' }), /service_account/],
    ['no email', JSON.stringify({ ...KEY, client_email: '' }), /"client_email" is missing/],
    ['no key', JSON.stringify({ ...KEY, private_key: undefined }), /"private_key" is missing/],
    ['a number', JSON.stringify({ ...KEY, project_id: 7 }), /"project_id" is missing/],
  ])('refuses %s', (_label, key, message) => {
    expect(() => parseVertexKey(key)).toThrow(VertexConfigError);
    expect(() => parseVertexKey(key)).toThrow(message);
  });

  it('never quotes the private key in its errors', () => {
    let message = '';
    try {
      parseVertexKey(JSON.stringify({ ...KEY, project_id: '' }));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/project_id/);
    expect(message).not.toContain('MIIE');
  });
});

describe('vertexRegion', () => {
  it('defaults to us-central1 and takes a plain region', () => {
    expect(vertexRegion('', 'gemini-2.0-flash')).toBe('us-central1');
    expect(vertexRegion(' europe-west4 ', 'gemini-2.0-flash')).toBe('europe-west4');
    expect(vertexRegion('global', 'gemini-2.5-pro')).toBe('global');
  });

  it("reads new-api's JSON: the model's own region, else default, else us-central1", () => {
    const other = '{"default":"us-central1","claude-3-5-sonnet-20240620":"us-east5"}';
    expect(vertexRegion(other, 'claude-3-5-sonnet-20240620')).toBe('us-east5');
    expect(vertexRegion(other, 'gemini-1.5-pro')).toBe('us-central1');
    expect(vertexRegion('{"default":"asia-northeast1"}', 'x')).toBe('asia-northeast1');
    expect(vertexRegion('{"claude-x":"us-east5"}', 'gemini')).toBe('us-central1');
    expect(vertexRegion('{"toString":"us-east5"}', 'constructor')).toBe('us-central1');
  });

  it.each([
    ['{default: us-central1}', /not JSON/],
    ['{"default": 5}', /"default" is not a string/],
    ['{"default": "US Central"}', /default "US Central" is not a region/],
    ['https://example.com', /other "https:\/\/example.com" is not a region/],
  ])('refuses %s', (other, message) => {
    expect(() => vertexRegion(other, 'gemini-2.0-flash')).toThrow(VertexConfigError);
    expect(() => vertexRegion(other, 'gemini-2.0-flash')).toThrow(message);
  });
});

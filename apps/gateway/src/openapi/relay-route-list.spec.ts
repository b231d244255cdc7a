import { probeRoutes, relayApiRoutes } from './relay-route-list';

describe('probeRoutes', () => {
  it('reads the routes a registrar adds, HEAD left out', async () => {
    const routes = await probeRoutes({
      register(instance) {
        instance.get('/v1/models', () => ({}));
        instance.post('/v1/chat/completions', () => ({}));
      },
    });
    expect(routes).toEqual([
      { method: 'GET', url: '/v1/models' },
      { method: 'POST', url: '/v1/chat/completions' },
    ]);
  });
});

describe('relayApiRoutes', () => {
  const routes = relayApiRoutes([
    { method: 'POST', url: '/v1/chat/completions' },
    { method: 'POST', url: '/v1/audio/transcriptions' },
    { method: 'GET', url: '/v1/files/:id' },
    { method: 'POST', url: '/v1beta/models/*' },
    { method: 'POST', url: '/pg/chat/completions' },
    { method: 'GET', url: '/mj-fast/mj/image/:id' },
    { method: 'OPTIONS', url: '/v1/*' },
    { method: 'POST', url: '/suno/submit/:action' },
  ]);
  const route = (path: string) => routes.find((r) => r.path === path);

  it('gives OpenAI endpoints a body naming the model and an API key role', () => {
    expect(route('/v1/chat/completions')).toMatchObject({
      method: 'POST',
      tag: 'Relay /v1',
      role: 'token',
      family: 'relay',
      body: 'model',
      operationId: 'relay_post_v1_chat_completions',
      note: 'OpenAI-compatible `chat` endpoint, relayed to a channel serving the model.',
    });
    expect(route('/v1/audio/transcriptions')?.body).toBe('multipart');
  });

  it('marks the routes the relay does not implement, and takes params from the path', () => {
    expect(route('/v1/files/{id}')).toMatchObject({
      note: 'Not implemented: answers 501 api_not_implemented.',
      pathParams: [{ name: 'id', type: 'string' }],
      body: undefined,
    });
    expect(route('/v1beta/models/{path}')).toMatchObject({
      tag: 'Relay /v1beta',
      body: 'object',
      pathParams: [{ name: 'path', type: 'string' }],
    });
  });

  it('knows the routes that need no API key', () => {
    expect(route('/pg/chat/completions')?.role).toBe('user');
    expect(route('/mj-fast/mj/image/{id}')).toMatchObject({ role: 'public', tag: 'Relay /mj' });
    expect(route('/v1/{path}')).toMatchObject({ method: 'OPTIONS', role: 'public' });
    expect(route('/suno/submit/{action}')).toMatchObject({ role: 'token', tag: 'Relay /suno' });
  });
});

import { pathParamNames, toOpenApiPath } from './api-route';

describe('toOpenApiPath', () => {
  it('turns Fastify params and a trailing wildcard into templates', () => {
    expect(toOpenApiPath('/api/token/:id')).toBe('/api/token/{id}');
    expect(toOpenApiPath('/v1/files/:id/content')).toBe('/v1/files/{id}/content');
    expect(toOpenApiPath('/v1beta/models/*')).toBe('/v1beta/models/{path}');
    expect(toOpenApiPath('/api/status')).toBe('/api/status');
  });

  it('lists the template names in order', () => {
    expect(pathParamNames('/a/{model}/b/{id}')).toEqual(['model', 'id']);
    expect(pathParamNames('/api/status')).toEqual([]);
  });
});

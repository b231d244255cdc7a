import { IsString } from 'class-validator';
import type { ApiRoute } from './api-route';
import { openApiDocument } from './openapi-document';

class NoteBody {
  @IsString() text!: string;
}

const base = { pathParams: [], summary: 's', family: 'console', tag: 'Notes' } as const;
const ROUTES: ApiRoute[] = [
  {
    ...base,
    method: 'POST',
    path: '/api/note',
    operationId: 'Notes_create',
    role: 'admin',
    body: NoteBody,
  },
  { ...base, method: 'GET', path: '/api/note', operationId: 'Notes_create', role: 'public' },
  {
    ...base,
    method: 'POST',
    path: '/v1/chat/completions',
    operationId: 'relay_chat',
    role: 'token',
    family: 'relay',
    tag: 'Relay /v1',
    body: 'model',
    note: 'OpenAI chat.',
  },
];

describe('openApiDocument', () => {
  const doc = openApiDocument(ROUTES, '1.2.3');

  it('is an OpenAPI 3.1 document of the version, with a tag per controller', () => {
    expect(doc['openapi']).toBe('3.1.0');
    expect(doc['info']).toMatchObject({ title: 'Tollgate API', version: '1.2.3' });
    expect(doc['tags']).toEqual([{ name: 'Notes' }, { name: 'Relay /v1' }]);
  });

  it('answers console routes with the envelope and states their role three ways', () => {
    const create = doc.paths['/api/note']?.['post'];
    expect(create).toMatchObject({
      'x-tollgate-role': 'admin',
      description: 'Needs an administrator (role 10 or above).',
      security: [
        { session: [], userHeader: [] },
        { accessToken: [], userHeader: [] },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NoteBody' } } },
      },
    });
    expect(create?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
    });
    expect(doc.components.schemas['NoteBody']).toMatchObject({ required: ['text'] });
    expect(doc.paths['/api/note']?.['get']?.security).toEqual([]);
  });

  it('keeps operation ids unique', () => {
    expect(doc.paths['/api/note']?.['get']?.operationId).toBe('Notes_create');
    expect(doc.paths['/api/note']?.['post']?.operationId).toBe('Notes_create_2');
  });

  it('answers relay routes in the OpenAI shapes behind an API key', () => {
    const chat = doc.paths['/v1/chat/completions']?.['post'];
    expect(chat).toMatchObject({
      description: 'Needs an API key (Authorization: Bearer sk-…). OpenAI chat.',
      security: [{ apiKey: [] }],
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/RelayRequest' } } },
      },
    });
    expect(chat?.responses['default']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenAiError' } } },
    });
    expect(doc.components.schemas['RelayRequest']).toMatchObject({ required: ['model'] });
  });
});

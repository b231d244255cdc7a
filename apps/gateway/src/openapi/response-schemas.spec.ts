import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IsString } from 'class-validator';
import type { ApiRoute } from './api-route';
import { openApiDocument } from './openapi-document';
import { GENERATED_RESPONSES, type ResponseSchemas } from './response-schemas';

const ROOT = join(__dirname, '..', '..', '..', '..');
const GENERATOR = join(ROOT, 'scripts', 'openapi-responses.mjs');
const CHECKED_IN = join(__dirname, 'generated', 'response-schemas.json');

describe('generated response schemas', () => {
  it('are what the generator makes of the code now (else run `npm run openapi:responses`)', async () => {
    // The generator is an ES module using the TypeScript compiler: it runs in its own node.
    const { stdout } = await promisify(execFile)(process.execPath, [GENERATOR, '--stdout'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const stale = stdout !== readFileSync(CHECKED_IN, 'utf8');
    if (stale)
      throw new Error(
        'apps/gateway/src/openapi/generated/response-schemas.json is stale: the controllers or ' +
          'libs/contracts changed what the handlers answer. Run `npm run openapi:responses` and ' +
          'commit the file.',
      );
    expect(stale).toBe(false);
  }, 60_000);

  it('know the handlers by controller class and method', () => {
    expect(GENERATED_RESPONSES.routes['StatusController.getStatus']).toEqual({
      $ref: '#/components/schemas/StatusDto',
    });
    expect(GENERATED_RESPONSES.schemas['StatusDto']).toMatchObject({
      type: 'object',
      properties: { version: { type: 'string' }, setup: { type: 'boolean' } },
    });
  });
});

class NoteBody {
  @IsString() text!: string;
}

const base = {
  pathParams: [],
  summary: 's',
  family: 'console',
  tag: 'Notes',
  role: 'user',
} as const;
const ROUTES: ApiRoute[] = [
  {
    ...base,
    method: 'GET',
    path: '/api/note/{id}',
    operationId: 'Notes_get',
    handler: 'NotesController.get',
  },
  {
    ...base,
    method: 'POST',
    path: '/api/note',
    operationId: 'Notes_create',
    handler: 'NotesController.create',
    body: NoteBody,
  },
  {
    ...base,
    method: 'GET',
    path: '/api/note/test',
    operationId: 'Notes_test',
    handler: 'NotesController.test',
  },
  {
    ...base,
    method: 'DELETE',
    path: '/api/note/{id}',
    operationId: 'Notes_remove',
    handler: 'NotesController.remove',
  },
  { ...base, method: 'GET', path: '/api/other', operationId: 'Notes_other' },
];

const RESPONSES: ResponseSchemas = {
  schemas: {
    // Clashes with the request DTO of the same name: renamed beside it.
    NoteBody: { type: 'object', properties: { html: { type: 'string' } } },
    NoteDto: { type: 'object', properties: { body: { $ref: '#/components/schemas/NoteBody' } } },
    TestResult: { type: 'object', properties: { time: { type: 'number' } } },
  },
  routes: {
    'NotesController.get': { $ref: '#/components/schemas/NoteDto' },
    'NotesController.create': { type: 'array', items: { type: 'number' } },
    'NotesController.remove': {},
  },
  answers: { 'NotesController.test': { $ref: '#/components/schemas/TestResult' } },
};

describe('openApiDocument with response schemas', () => {
  const doc = openApiDocument(ROUTES, '1.0.0', RESPONSES);
  const schemaOf = (path: string, method: string) =>
    (doc.paths[path]?.[method]?.responses['200'] as { content: Record<string, unknown> })?.content[
      'application/json'
    ];

  it("answers a known handler's data inside the envelope", () => {
    expect(schemaOf('/api/note/{id}', 'get')).toEqual({
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Envelope' },
          { properties: { data: { $ref: '#/components/schemas/NoteDto' } } },
        ],
      },
    });
    expect(schemaOf('/api/note', 'post')).toEqual({
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Envelope' },
          { properties: { data: { type: 'array', items: { type: 'number' } } } },
        ],
      },
    });
  });

  it('documents an envelope-shaped answer whole', () => {
    expect(schemaOf('/api/note/test', 'get')).toEqual({
      schema: {
        allOf: [
          { $ref: '#/components/schemas/Envelope' },
          { $ref: '#/components/schemas/TestResult' },
        ],
      },
    });
  });

  it('keeps the open envelope for open data and unknown handlers', () => {
    const open = { schema: { $ref: '#/components/schemas/Envelope' } };
    expect(schemaOf('/api/note/{id}', 'delete')).toEqual(open);
    expect(schemaOf('/api/other', 'get')).toEqual(open);
  });

  it('renames a response schema whose name a request DTO took, with its refs', () => {
    expect(doc.components.schemas['NoteBody']).toMatchObject({ required: ['text'] });
    expect(doc.components.schemas['NoteBodyData']).toEqual(RESPONSES.schemas['NoteBody']);
    expect(doc.components.schemas['NoteDto']).toEqual({
      type: 'object',
      properties: { body: { $ref: '#/components/schemas/NoteBodyData' } },
    });
    expect(doc.components.schemas['Envelope']).toBeDefined();
  });
});

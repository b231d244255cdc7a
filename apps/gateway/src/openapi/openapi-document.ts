import type { ApiRoute } from './api-route';
import { DtoSchemas, type JsonSchema, SCHEMA_REF } from './dto-schemas';
import { roleSentence, securityOf, SECURITY_SCHEMES, SHARED_SCHEMAS } from './openapi-components';
import { besideTaken, GENERATED_RESPONSES, type ResponseSchemas } from './response-schemas';

export type OpenApiDocument = JsonSchema & {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

export interface OpenApiOperation {
  tags: string[];
  operationId: string;
  summary: string;
  description: string;
  'x-tollgate-role': string;
  parameters: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  security: Array<Record<string, string[]>>;
}

const ref = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF}${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

const ENVELOPE_DESCRIPTION = 'The envelope (HTTP 200 for business failures too).';
const CONSOLE_RESPONSES = {
  '200': { description: ENVELOPE_DESCRIPTION, content: json(ref('Envelope')) },
};
const RELAY_RESPONSES = {
  '200': {
    description: 'The provider-shaped answer, or a text/event-stream when the request streams.',
    content: json({ type: 'object' }),
  },
  default: { description: 'An error in the OpenAI shape.', content: json(ref('OpenAiError')) },
};

function requestBody(route: ApiRoute, dtos: DtoSchemas): JsonSchema | undefined {
  const body = route.body;
  if (body === undefined) return undefined;
  if (body === 'multipart')
    return { required: true, content: { 'multipart/form-data': { schema: ref('AudioUpload') } } };
  const schema =
    body === 'model'
      ? ref('RelayRequest')
      : body === 'object'
        ? { type: 'object' }
        : dtos.schemaOf(body);
  return { required: true, content: json(schema) };
}

function parameters(route: ApiRoute, dtos: DtoSchemas): JsonSchema[] {
  const path = route.pathParams.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    schema: { type: p.type },
  }));
  const query = route.query ? dtos.queryParameters(route.query) : [];
  const named = (route.queryNames ?? []).map((name) => ({
    name,
    in: 'query',
    schema: { type: 'string' },
  }));
  const headers = (route.headerNames ?? []).map((name) => ({
    name,
    in: 'header',
    schema: { type: 'string' },
  }));
  return [...path, ...query, ...named, ...headers];
}

/**
 * A console route's answer: the envelope with the `data` schema the generator read from the
 * handler's return type, the whole envelope-shaped answer it read, or the open envelope.
 */
function consoleResponses(route: ApiRoute, responses: ResponseSchemas): Record<string, JsonSchema> {
  const key = route.handler ?? '';
  const plain = responses.plain?.[key];
  if (plain !== undefined) {
    return {
      '200': {
        description: `Not the envelope: the answer as it is (${plain === 'string' ? 'text or a page' : 'a document'}).`,
        content: { '*/*': { schema: plain === 'string' ? { type: 'string' } : {} } },
      },
    };
  }
  const data = Object.hasOwn(responses.routes, key) ? responses.routes[key] : undefined;
  const whole = Object.hasOwn(responses.answers, key) ? responses.answers[key] : undefined;
  const extra = whole ?? (data && Object.keys(data).length > 0 && { properties: { data } });
  if (!extra) return CONSOLE_RESPONSES;
  return {
    '200': {
      description: ENVELOPE_DESCRIPTION,
      content: json({ allOf: [ref('Envelope'), extra] }),
    },
  };
}

function operation(
  route: ApiRoute,
  dtos: DtoSchemas,
  operationId: string,
  responses: ResponseSchemas,
): OpenApiOperation {
  const body = requestBody(route, dtos);
  return {
    tags: [route.tag],
    operationId,
    summary: route.summary,
    description: [roleSentence(route.role), route.note].filter(Boolean).join(' '),
    'x-tollgate-role': route.role,
    parameters: parameters(route, dtos),
    ...(body && { requestBody: body }),
    responses: route.family === 'console' ? consoleResponses(route, responses) : RELAY_RESPONSES,
    security: securityOf(route.role),
  };
}

/**
 * The OpenAPI 3.1 document of these routes: paths in order; the request DTOs' schemas and the
 * generated response schemas (`npm run openapi:responses`) under components.
 */
export function openApiDocument(
  routes: readonly ApiRoute[],
  version: string,
  generated: ResponseSchemas = GENERATED_RESPONSES,
): OpenApiDocument {
  const dtos = new DtoSchemas();
  // The request DTOs' names first: a response schema of a name they took is renamed beside them.
  for (const route of routes) {
    requestBody(route, dtos);
    parameters(route, dtos);
  }
  const responses = besideTaken(generated, { ...SHARED_SCHEMAS, ...dtos.components });
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  const sorted = [...routes].sort(
    (a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
  for (const route of sorted) {
    let id = route.operationId;
    for (let n = 2; ids.has(id); n++) id = `${route.operationId}_${n}`;
    ids.add(id);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, dtos, id, responses);
  }
  const tags = [...new Set(sorted.map((r) => r.tag))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate API',
      version,
      description:
        'The console API (/api, answers in the {success, message, data} envelope) and the relay (/v1 and the other provider fronts). Generated from the code at start-up.',
    },
    tags,
    paths,
    components: {
      schemas: { ...responses.schemas, ...SHARED_SCHEMAS, ...dtos.components },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

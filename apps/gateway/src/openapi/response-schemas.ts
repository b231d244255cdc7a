import { SCHEMA_REF, type JsonSchema } from './dto-schemas';
import generated from './generated/response-schemas.json';

/**
 * What `npm run openapi:responses` (scripts/openapi-responses.mjs) read from the controllers'
 * return types and the contracts lib: `routes["UsersController.get"]` is the schema of the `data`
 * the handler answers in its envelope, `answers[…]` the whole answer of a handler answering an
 * envelope-shaped type with more fields (a channel test's `time`), `schemas` the contracts types
 * they point at.
 */
export interface ResponseSchemas {
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly routes: Readonly<Record<string, JsonSchema>>;
  readonly answers: Readonly<Record<string, JsonSchema>>;
  /** Handlers answering no envelope (text, a raw document): their TypeScript answer type. */
  readonly plain?: Readonly<Record<string, string>>;
}

/** The checked-in file (response-schemas.spec.ts fails when it is stale). */
export const GENERATED_RESPONSES: ResponseSchemas = generated;

function renameRefs(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, renamed));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== '$ref' || typeof item !== 'string' || !item.startsWith(SCHEMA_REF))
        return [key, renameRefs(item, renamed)];
      const name = item.slice(SCHEMA_REF.length);
      return [key, `${SCHEMA_REF}${renamed.get(name) ?? name}`];
    }),
  );
}

/**
 * The response schemas beside names already taken (the request DTOs', the shared ones): a
 * response schema whose name is taken by a different schema becomes `<Name>Data` (`<Name>Data2`,
 * …), and every $ref to it follows.
 */
export function besideTaken(
  responses: ResponseSchemas,
  taken: Readonly<Record<string, JsonSchema>>,
): ResponseSchemas {
  const renamed = new Map<string, string>();
  const used = new Set([...Object.keys(taken), ...Object.keys(responses.schemas)]);
  for (const [name, schema] of Object.entries(responses.schemas)) {
    const other = taken[name];
    if (other === undefined || JSON.stringify(other) === JSON.stringify(schema)) continue;
    let free = `${name}Data`;
    for (let n = 2; used.has(free); n++) free = `${name}Data${n}`;
    used.add(free);
    renamed.set(name, free);
  }
  if (renamed.size === 0) return responses;
  const rename = <T>(value: T) => renameRefs(value, renamed) as T;
  return {
    schemas: Object.fromEntries(
      Object.entries(responses.schemas).map(([name, schema]) => [
        renamed.get(name) ?? name,
        rename(schema),
      ]),
    ),
    routes: rename(responses.routes),
    answers: rename(responses.answers),
  };
}

/**
 * Who may call a route: nobody signed in, a console user of at least that role (session or system
 * access token, plus New-Api-User), or an API key (`sk-…`) on the relay.
 */
export type RouteRole = 'public' | 'user' | 'admin' | 'root' | 'token';

/** A DTO class of a Nest handler's `@Body()` or `@Query()`. */
export type DtoClass = abstract new (...args: never[]) => unknown;

/**
 * A body no DTO class describes: any JSON object, a JSON object naming its `model` (the relay's
 * OpenAI-style requests), or a multipart form with a file (audio uploads).
 */
export type BodyShape = 'object' | 'model' | 'multipart';

export interface PathParam {
  readonly name: string;
  readonly type: 'integer' | 'string';
}

/** One `METHOD /path` the gateway serves, as the generator documents it. */
export interface ApiRoute {
  /** Upper case: GET, POST, … */
  readonly method: string;
  /** OpenAPI form: `{id}` for `:id`. */
  readonly path: string;
  readonly tag: string;
  readonly operationId: string;
  readonly summary: string;
  readonly role: RouteRole;
  readonly family: 'console' | 'relay';
  readonly pathParams: readonly PathParam[];
  /** `@Query()` DTO class (console) or single named query values. */
  readonly query?: DtoClass;
  readonly queryNames?: readonly string[];
  /** Request headers the handler reads by name (`@Headers('stripe-signature')`). */
  readonly headerNames?: readonly string[];
  /** `@Body()` DTO class, or the shape of a body no class describes. */
  readonly body?: DtoClass | BodyShape;
  /** `<Controller class>.<method>` of a Nest handler: its key in the generated response schemas. */
  readonly handler?: string;
  /** Extra sentence for the description (relay routes). */
  readonly note?: string;
}

/** The name OpenAPI gives a Fastify wildcard (`*`): the rest of the path. */
export const WILDCARD_PARAM = 'path';

/** A Fastify/Nest route URL in OpenAPI's template form: `:id` → `{id}`, `*` → `{path}`. */
export function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, `{${WILDCARD_PARAM}}`);
}

/** The template names of an OpenAPI path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

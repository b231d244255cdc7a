import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Role } from '@tollgate/contracts';
import { MIN_ROLE } from '../auth/auth.decorators';
import {
  type ApiRoute,
  type DtoClass,
  pathParamNames,
  type RouteRole,
  toOpenApiPath,
} from './api-route';

/** A controller class, as Nest's discovery hands it. */
export type ControllerClass = abstract new (...args: never[]) => unknown;

/** One `@Body()`, `@Query()` or `@Param()` argument as Nest's decorators record it. */
interface RouteArg {
  readonly index: number;
  readonly data?: unknown;
}

/** The role a RequireRole value names; no value: public. */
export function roleName(minRole: number | undefined): RouteRole {
  if (minRole === undefined) return 'public';
  if (minRole >= Role.Root) return 'root';
  if (minRole >= Role.Admin) return 'admin';
  return 'user';
}

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).map((v) => String(v ?? ''));

function joinPath(...parts: string[]): string {
  const joined = parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');
  return `/${joined}`;
}

/** "batchDelete" → "batch delete". */
function words(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Own and inherited method names of a controller's prototype. */
function methodNames(proto: object): string[] {
  const names = new Set<string>();
  for (let p = proto; p !== Object.prototype; p = Object.getPrototypeOf(p) as object)
    for (const name of Object.getOwnPropertyNames(p)) if (name !== 'constructor') names.add(name);
  return [...names];
}

/** The DTO class of an argument, or undefined when the handler takes no class (unknown, a map). */
function dtoOf(type: unknown): DtoClass | undefined {
  return typeof type === 'function' && type !== Object && type !== String && type !== Number
    ? (type as DtoClass)
    : undefined;
}

/** What a handler takes: its `@Param()`s, `@Query()`s, `@Headers()` and `@Body()`, with design types. */
function handlerArgs(
  controller: ControllerClass,
  proto: object,
  name: string,
): Pick<ApiRoute, 'query' | 'queryNames' | 'headerNames' | 'body'> & { intParams: unknown[] } {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
    string,
    RouteArg
  >;
  const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as unknown[];
  // Nest keys each argument `${RouteParamtypes}:${index}`.
  const of = (kind: RouteParamtypes) =>
    Object.entries(args)
      .filter(([key]) => key.split(':')[0] === String(kind))
      .map(([, arg]) => ({ data: arg.data, type: types[arg.index] }));
  const named = (kind: RouteParamtypes) =>
    of(kind).flatMap((arg) => (typeof arg.data === 'string' ? [arg.data] : []));
  const body = of(RouteParamtypes.BODY)[0];
  return {
    intParams: of(RouteParamtypes.PARAM)
      .filter((p) => p.type === Number)
      .map((p) => p.data),
    query: of(RouteParamtypes.QUERY)
      .map((q) => (q.data === undefined ? dtoOf(q.type) : undefined))
      .find(Boolean),
    queryNames: named(RouteParamtypes.QUERY),
    headerNames: named(RouteParamtypes.HEADERS),
    body: body && ((body.data === undefined && dtoOf(body.type)) || 'object'),
  };
}

/**
 * Every route of these controllers, read from the metadata Nest's decorators leave (the same
 * metadata Nest builds its router from): paths, methods, handler arguments with their design
 * types, and RequireRole on the handler or the class.
 */
export function controllerRoutes(controllers: readonly ControllerClass[]): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const controller of controllers) {
    const tag = controller.name.replace(/Controller$/, '');
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of methodNames(proto)) {
      const handler = proto[name];
      if (typeof handler !== 'function') continue;
      const method: unknown = Reflect.getMetadata(METHOD_METADATA, handler);
      if (method === undefined) continue;
      const minRole = (Reflect.getMetadata(MIN_ROLE, handler) ??
        Reflect.getMetadata(MIN_ROLE, controller)) as number | undefined;
      const { intParams, ...args } = handlerArgs(controller, proto, name);
      for (const base of list(Reflect.getMetadata(PATH_METADATA, controller))) {
        for (const tail of list(Reflect.getMetadata(PATH_METADATA, handler))) {
          const path = toOpenApiPath(joinPath(base, tail));
          routes.push({
            method: RequestMethod[method as RequestMethod],
            path,
            tag,
            operationId: `${tag}_${name}`,
            handler: `${controller.name}.${name}`,
            summary: words(name),
            role: roleName(minRole),
            family: 'console',
            pathParams: pathParamNames(path).map((param) => ({
              name: param,
              type: intParams.includes(param) ? 'integer' : 'string',
            })),
            ...args,
          });
        }
      }
    }
  }
  return routes;
}

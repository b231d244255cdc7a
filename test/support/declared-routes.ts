import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { TestApp } from './test-app';

/** `METHOD /path` of every route the running app's controllers declare. */
export function declaredRoutes(app: TestApp['app']): string[] {
  const routes: string[] = [];
  const join = (...parts: unknown[]) =>
    `/${parts
      .flatMap((p) => (Array.isArray(p) ? p : [p]))
      .filter((p): p is string => typeof p === 'string')
      .map((p) => p.replace(/^\/+|\/+$/g, ''))
      .filter((p) => p !== '')
      .join('/')}`;
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const prefix: unknown = Reflect.getMetadata(PATH_METADATA, controller);
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler: unknown = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path: unknown = Reflect.getMetadata(PATH_METADATA, handler);
        const method: unknown = Reflect.getMetadata(METHOD_METADATA, handler);
        if (path === undefined || typeof method !== 'number') continue;
        routes.push(`${RequestMethod[method]} ${join(prefix, path)}`);
      }
    }
  }
  return routes.filter((r) => / \/api(\/|$)/.test(r)).sort();
}

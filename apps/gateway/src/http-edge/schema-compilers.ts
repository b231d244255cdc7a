import type { FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';

type Compilers = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type BuildValidator = NonNullable<Compilers['buildValidator']>;
type BuildSerializer = NonNullable<Compilers['buildSerializer']>;

/** Resolved from Fastify's own place: the very packages its constructor would have loaded. */
const requireAsFastify = createRequire(require.resolve('fastify'));

type Factory = (...args: unknown[]) => unknown;

/** A factory that loads its package and builds the real factory on its first call. */
function loadedOnFirstCall<F>(load: (name: string) => unknown, name: string): F {
  let built: Factory | undefined;
  const factory = (...args: unknown[]) => {
    built ??= (load(name) as () => Factory)();
    return built(...args);
  };
  return factory as F;
}

/** The two compilers, each loaded through `load` (a test watches what it is asked for). */
export function schemaCompilersLoadedBy(load: (name: string) => unknown): Compilers {
  return {
    buildValidator: loadedOnFirstCall<BuildValidator>(load, '@fastify/ajv-compiler'),
    buildSerializer: loadedOnFirstCall<BuildSerializer>(
      load,
      '@fastify/fast-json-stringify-compiler',
    ),
  };
}

/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for responses), loaded
 * when a route first declares a schema that needs them instead of when an instance is created.
 * Fastify requires both in its constructor, ~2.3 MiB of heap that no route of ours uses: request
 * bodies are parsed and checked by the gateway itself, and no route declares a response schema.
 * Giving them as factories also marks them "custom" to Fastify, which only changes how a route's
 * `headers` schema is compiled; no route has one.
 */
export const LAZY_SCHEMA_COMPILERS: Compilers = schemaCompilersLoadedBy(requireAsFastify);

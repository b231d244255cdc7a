import type { FastifyInstance } from 'fastify';
import { RelayRouteExtensions } from './relay-route-extensions';

describe("RelayRouteExtensions: other modules' routes join the relay's scope", () => {
  const scope = {} as FastifyInstance;

  it('registers each added registrar in the scope, in order', () => {
    // Given two registrars added before the relay registered its routes
    const extensions = new RelayRouteExtensions();
    const seen: string[] = [];
    extensions.add((s) => seen.push(s === scope ? 'first' : '?'));
    extensions.add(() => seen.push('second'));
    // When the relay registers its scope
    extensions.register(scope);
    // Then both ran there
    expect(seen).toEqual(['first', 'second']);
  });

  it('refuses a registrar added after the relay registered (it would never run)', () => {
    const extensions = new RelayRouteExtensions();
    extensions.register(scope);
    expect(() => extensions.add(() => undefined)).toThrow(/after the relay registered/);
  });
});

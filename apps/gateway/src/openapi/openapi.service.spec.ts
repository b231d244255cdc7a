import type { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { OpenApiService } from './openapi.service';

/** A relay with one route, and a discovery that counts how often the reference was built. */
function service() {
  const discovery = { getControllers: jest.fn(() => []) };
  const relay = {
    register: (instance: FastifyInstance) => instance.post('/v1/chat/completions', () => ''),
  };
  const moduleRef = { get: () => relay };
  const openapi = new OpenApiService(
    discovery as unknown as DiscoveryService,
    moduleRef as unknown as ModuleRef,
    { version: '1.2.3' } as AppConfig,
  );
  return { openapi, discovery };
}

describe('OpenApiService', () => {
  it('builds the reference on its first read, once, not when constructed', async () => {
    const { openapi, discovery } = service();
    expect(discovery.getControllers).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([openapi.document(), openapi.document()]);
    expect(first).toBe(second);
    expect(Object.keys(first['paths'] as object)).toEqual(['/v1/chat/completions']);
    expect(discovery.getControllers).toHaveBeenCalledTimes(1);
  });

  it('renders a language page on its first read and keeps it', async () => {
    const { openapi } = service();
    const en = await openapi.html('en');
    expect(en).toContain('/v1/chat/completions');
    expect(await openapi.html('en')).toBe(en);
    expect(await openapi.html('zh-CN')).not.toBe(en);
  });
});

import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { RelayRouteRegistrar } from './task-relay-port';

/**
 * Routes other modules add to the relay's front (the task relays): registered in the relay's own
 * scope, after its routes, so they share its raw-body parsers, body limits and error handler.
 * Registrars are added while the app's providers are built, before the relay module's init.
 */
@Injectable()
export class RelayRouteExtensions {
  private readonly registrars: RelayRouteRegistrar[] = [];
  private registered = false;

  add(registrar: RelayRouteRegistrar): void {
    if (this.registered) throw new Error('relay routes added after the relay registered its own');
    this.registrars.push(registrar);
  }

  register(scope: FastifyInstance): void {
    this.registered = true;
    for (const registrar of this.registrars) registrar(scope);
  }
}

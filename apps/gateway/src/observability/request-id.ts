import { randomUUID } from 'node:crypto';

const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/** A client's X-Request-Id is kept when it is at most 64 of [A-Za-z0-9._-]; else one is made. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && WELL_FORMED.test(header) ? header : newRequestId();
}

/** 32 hex digits: what the relay has always answered in its error messages. */
export function newRequestId(): string {
  return randomUUID().replace(/-/g, '');
}

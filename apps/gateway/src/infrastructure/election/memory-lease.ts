import type { LeaseGrant, LeasePort } from './lease.port';

interface Held {
  holder: string | null;
  token: number;
  expiresAt: number;
}

/**
 * Leases in memory, one "server" shared by every election handed this object: for tests (two
 * elections on one instance are two machines on one engine). The clock is injectable.
 */
export class MemoryLease implements LeasePort {
  private readonly roles = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  acquire(role: string, holder: string, ttlMs: number): Promise<LeaseGrant | null> {
    const held = this.roles.get(role) ?? { holder: null, token: 0, expiresAt: 0 };
    const free = held.holder === null || held.expiresAt <= this.now() || held.holder === holder;
    if (!free) return Promise.resolve(null);
    const next = { holder, token: held.token + 1, expiresAt: this.now() + ttlMs };
    this.roles.set(role, next);
    return Promise.resolve({ token: next.token });
  }

  renew(role: string, holder: string, token: number, ttlMs: number): Promise<boolean> {
    const held = this.roles.get(role);
    if (!held || held.holder !== holder || held.token !== token) return Promise.resolve(false);
    held.expiresAt = this.now() + ttlMs;
    return Promise.resolve(true);
  }

  release(role: string, holder: string, token: number): Promise<void> {
    const held = this.roles.get(role);
    if (held && held.holder === holder && held.token === token) held.holder = null;
    return Promise.resolve();
  }

  holderOf(role: string): Promise<string | null> {
    const held = this.roles.get(role);
    return Promise.resolve(held && held.expiresAt > this.now() ? held.holder : null);
  }
}

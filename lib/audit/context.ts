import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor } from './model';

/**
 * What every audit entry of one request shares: who is calling and from where. The handler
 * factory (lib/http/handler) runs each request inside it, so a service states only what
 * happened (lib/audit/record) and never threads the request through its signatures.
 * Outside a request (jobs, `npm run` scripts), entries are the platform's own: actor
 * `system`, no address.
 */
export interface RequestOrigin {
  requestId: string;
  sourceIp: string | null;
  userAgent: string | null;
  /** The signed-in caller on a protected route; unknown (undefined) on a public one. */
  actor?: AuditActor;
}

const storage = new AsyncLocalStorage<RequestOrigin>();

/** Run `fn` as the handling of one request. */
export const withRequestOrigin = <T>(origin: RequestOrigin, fn: () => Promise<T>): Promise<T> => storage.run(origin, fn);

/** The request being handled, if any. */
export const currentOrigin = (): RequestOrigin | undefined => storage.getStore();

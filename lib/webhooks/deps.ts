import { randomUUID } from 'node:crypto';
import * as deliveries from '../db/repositories/webhook-deliveries';
import * as endpoints from '../db/repositories/webhooks';
import type { DeliveryDeps } from './delivery';
import { checkTarget } from './ssrf';

/** The delivery's dependencies as deployed and in `npm start`: the table, the network, the clock, the SSRF guard. */
export function storeDeliveryDeps(overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    checkTarget,
    deliveries,
    endpoints,
    newId: () => randomUUID(),
    ...overrides,
  };
}

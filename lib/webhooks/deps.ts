import * as deliveries from '../db/repositories/webhook-deliveries';
import { getEndpoint, getSecrets, listEndpointsFor, setFailingSince } from '../db/repositories/webhooks';
import type { DeliveryDeps } from './delivery';
import { disableEndpoint } from './service';
import { checkTarget } from './ssrf';

/** The delivery's dependencies as deployed and in `npm start`: the table, the network, the clock, the SSRF guard. */
export function storeDeliveryDeps(overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    checkTarget: async (url) => {
      await checkTarget(url);
    },
    deliveries,
    // Disabling goes through the service, which records it in the audit trail as the system's change.
    endpoints: { getEndpoint, listEndpointsFor, getSecrets, setFailingSince, disableEndpoint: (tenantId, id, reason) => disableEndpoint(tenantId, id, reason) },
    ...overrides,
  };
}

import * as deliveries from './deliveries-repository';
import { getEndpoint, getSecrets, listEndpointsFor, setFailingSince } from './repository';
import type { DeliveryDeps } from './delivery';
import { createPinnedFetch } from './pinned-fetch';
import { disableEndpoint } from './service';
import { vetTarget } from './ssrf';

/** The delivery's dependencies as deployed and in `npm start`: the table, the network (pinned to the addresses the SSRF guard checked), the clock, the SSRF guard. */
export function storeDeliveryDeps(overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return {
    // The POST connects to the addresses `checkTarget` vetted, without resolving the name again (DNS rebinding).
    fetch: createPinnedFetch(),
    now: () => Date.now(),
    checkTarget: (url) => vetTarget(url),
    deliveries,
    // Disabling goes through the service, which records it in the audit trail as the system's change.
    endpoints: { getEndpoint, listEndpointsFor, getSecrets, setFailingSince, disableEndpoint: (tenantId, id, reason) => disableEndpoint(tenantId, id, reason) },
    ...overrides,
  };
}

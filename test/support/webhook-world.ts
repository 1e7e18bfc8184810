import { randomBytes, randomUUID } from 'node:crypto';
import type { DomainEvent, EventType } from '../../lib/domain/events';
import type { DeliveryDeps, FetchLike } from '../../lib/webhooks/delivery';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent, WebhookSecrets } from '../../lib/webhooks/model';

/**
 * An in-memory world for the webhook delivery's code (lib/webhooks/delivery, lib/webhooks/engine):
 * a fake network, clock and store, the endpoints and the receiver's answers.
 */

export const START = Date.parse('2026-11-24T12:00:00.000Z');
export const TENANT = '6f1c2a8e-4b7d-4e0f-9a3c-2d5e8f1b4c7a';

export const event = (type: EventType = 'stock_movement.created'): DomainEvent => ({
  id: randomUUID(),
  type,
  timestamp: new Date(START).toISOString(),
  data: { id: randomUUID(), tenantId: TENANT, productId: 'p1', warehouseId: 'w1', movementType: 'in' },
});

export const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: randomUUID(),
  tenantId: TENANT,
  url: 'https://hooks.example.com/in',
  description: null,
  events: ['stock_movement.created'],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: new Date(START).toISOString(),
  updatedAt: new Date(START).toISOString(),
  ...overrides,
});

export const secretsOf = (target: WebhookEndpoint): WebhookSecrets => ({
  tenantId: target.tenantId,
  endpointId: target.id,
  current: `whsec_${randomBytes(24).toString('base64')}`,
  previous: null,
  previousExpiresAt: null,
});

export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** An in-memory world: the store's items, the endpoints, the clock and the receiver's answers. */
export function world() {
  let now = START;
  const items = new Map<string, { delivery: WebhookDelivery; event: WebhookEvent }>();
  /** The deliveries an attempt holds (claimed, not yet recorded), as the store's `leased`. */
  const leased = new Set<string>();
  const endpoints = new Map<string, WebhookEndpoint>();
  const secrets = new Map<string, WebhookSecrets>();
  const sent: Sent[] = [];
  const checked: string[] = [];
  const disabled: { id: string; reason: string }[] = [];
  let answers: (() => Response | Promise<Response>)[] = [];
  let refuse: string | undefined;
  const fetch: FetchLike = (url, init) => {
    sent.push({ url, headers: init.headers, body: init.body });
    const answer = answers.shift() ?? (() => new Response('ok', { status: 200 }));
    return Promise.resolve(answer());
  };
  const deps: DeliveryDeps = {
    fetch,
    now: () => now,
    checkTarget: (url) => {
      checked.push(url);
      return refuse ? Promise.reject(new Error(refuse)) : Promise.resolve();
    },
    deliveries: {
      insertDelivery: (delivery, carried) => {
        if (items.has(delivery.id)) return Promise.resolve(false);
        items.set(delivery.id, { delivery: structuredClone(delivery), event: carried });
        leased.add(delivery.id);
        return Promise.resolve(true);
      },
      getDelivery: (ref) => Promise.resolve(items.has(ref.id) ? structuredClone(items.get(ref.id)) : undefined),
      reopenDelivery: (read, at, claimedUntil) => {
        const stored = items.get(read.id);
        if (!stored || stored.delivery.status !== read.status || stored.delivery.attempts.length !== read.attempts.length) return Promise.resolve(undefined);
        if (read.status === 'pending' && stored.delivery.nextAttemptAt !== read.nextAttemptAt) return Promise.resolve(undefined);
        if (leased.has(read.id) && (stored.delivery.nextAttemptAt ?? '') >= at) return Promise.resolve(undefined);
        Object.assign(stored.delivery, { status: 'pending', nextAttemptAt: claimedUntil });
        leased.add(read.id);
        return Promise.resolve(structuredClone(stored));
      },
      recordAttempt: (delivery, attempt, outcome, claimedUntil) => {
        const stored = items.get(delivery.id);
        if (!stored || stored.delivery.status !== 'pending' || stored.delivery.nextAttemptAt !== claimedUntil) return Promise.resolve(false);
        if (attempt) stored.delivery.attempts.push(attempt);
        Object.assign(stored.delivery, outcome);
        leased.delete(delivery.id);
        return Promise.resolve(true);
      },
      listDue: (at) =>
        Promise.resolve(
          [...items.values()]
            .filter(({ delivery }) => delivery.status === 'pending' && delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= at)
            .map(({ delivery }) => structuredClone(delivery)),
        ),
      claimDelivery: (delivery, seen, claimedUntil) => {
        const stored = items.get(delivery.id);
        if (!stored || stored.delivery.status !== 'pending' || stored.delivery.nextAttemptAt !== seen) return Promise.resolve(undefined);
        stored.delivery.nextAttemptAt = claimedUntil;
        leased.add(delivery.id);
        return Promise.resolve(structuredClone(stored));
      },
    },
    endpoints: {
      getEndpoint: (_tenant, id) => Promise.resolve(endpoints.get(id)),
      listEndpointsFor: (tenant, type) =>
        Promise.resolve([...endpoints.values()].filter((one) => one.tenantId === tenant && one.enabled && one.events.includes(type))),
      getSecrets: (_tenant, id) => Promise.resolve(secrets.get(id)),
      disableEndpoint: (_tenant, id, reason) => {
        const one = endpoints.get(id);
        if (one?.enabled) {
          Object.assign(one, { enabled: false, disabledReason: reason });
          disabled.push({ id, reason });
        }
        return Promise.resolve();
      },
      setFailingSince: (target, read, value) => {
        const one = endpoints.get(target.id);
        if (one && one.failingSince === read) one.failingSince = value;
        return Promise.resolve();
      },
    },
  };
  return {
    deps,
    disabled,
    sent,
    checked,
    items,
    endpoints,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    answer: (...next: (() => Response | Promise<Response>)[]) => {
      answers = next;
    },
    refuse: (why: string | undefined) => {
      refuse = why;
    },
    register: (overrides: Partial<WebhookEndpoint> = {}) => {
      const one = endpoint(overrides);
      endpoints.set(one.id, one);
      const own = secretsOf(one);
      secrets.set(one.id, own);
      return { endpoint: one, secrets: own };
    },
    stored: (id: string) => items.get(id)?.delivery,
  };
}

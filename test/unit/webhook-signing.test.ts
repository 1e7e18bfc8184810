import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../lib/domain/events';
import type { WebhookSecrets } from '../../lib/webhooks/model';
import { deliveryBody, signDelivery, signingSecrets } from '../../lib/webhooks/signing';

/** A delivery's Standard Webhooks signature (lib/webhooks/signing), checked with the package's own verifier, as a receiver would. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const event: DomainEvent = {
  id: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d',
  type: 'stock_movement.created',
  timestamp: '2026-11-24T12:00:00.000Z',
  data: { id: 'm1', tenantId: 't1', productId: 'p1', warehouseId: 'w1', movementType: 'in' },
};
const secrets = (overrides: Partial<WebhookSecrets> = {}): WebhookSecrets => ({
  tenantId: 't1',
  endpointId: 'e1',
  current: newSecret(),
  previous: null,
  previousExpiresAt: null,
  ...overrides,
});

describe('signDelivery', () => {
  it('signs the thin event with the current secret: webhook-id is the event id, the timestamp in seconds', () => {
    const now = Date.now();
    const stored = secrets();
    const body = deliveryBody(event);
    const headers = signDelivery(event, body, stored, now);
    expect(JSON.parse(body)).toEqual({ type: event.type, timestamp: event.timestamp, data: event.data });
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(stored.current).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('during a rotation signs with both secrets, space-separated, so a receiver holding either verifies', () => {
    const now = Date.now();
    const stored = secrets({ previous: newSecret(), previousExpiresAt: new Date(now + 3_600_000).toISOString() });
    const body = deliveryBody(event);
    const headers = signDelivery(event, body, stored, now);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(stored.current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(stored.previous as string).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow();
  });

  it('drops the previous secret once it has expired', () => {
    const now = Date.now();
    const stored = secrets({ previous: newSecret(), previousExpiresAt: new Date(now - 1).toISOString() });
    expect(signingSecrets(stored, now)).toEqual([stored.current]);
    const body = deliveryBody(event);
    const headers = signDelivery(event, body, stored, now);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(stored.previous as string).verify(body, { ...headers })).toThrow();
  });

  it('a changed body no longer verifies', () => {
    const stored = secrets();
    const body = deliveryBody(event);
    const headers = signDelivery(event, body, stored, Date.now());
    expect(() => new Webhook(stored.current).verify(body.replace('"in"', '"out"'), { ...headers })).toThrow();
  });
});

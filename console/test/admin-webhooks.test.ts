import { describe, expect, it } from 'vitest';
import type { components } from '@backoffice/client';
import { EVENT_TYPES } from '../../lib/domain/events';
import { webhookMessages } from '../src/pages/webhooks/webhook-messages';
import {
  attemptOutcome,
  createEndpointBody,
  DELIVERED_TYPES,
  deliveriesQuery,
  EMPTY_ENDPOINT_FORM,
  endpointFormProblems,
  endpointState,
  formOf,
  lastAttemptOf,
  NO_DELIVERY_FILTERS,
  updateEndpointBody,
  WEBHOOK_EVENT_TYPES,
  withAllEvents,
  withEvent,
  type CreateEndpointBody,
  type EndpointForm,
  type UpdateEndpointBody,
} from '../src/pages/webhooks/webhooks';

/** Checked when compiled: the bodies the forms build are ones the API takes. */
export const bodiesFit = (
  create: CreateEndpointBody,
  update: UpdateEndpointBody,
): [components['schemas']['CreateWebhookEndpointRequest'], components['schemas']['UpdateWebhookEndpointRequest']] => [create, update];

const form = (changes: Partial<EndpointForm> = {}): EndpointForm => ({ ...EMPTY_ENDPOINT_FORM, ...changes });
const listed = { url: 'https://erp.example.com/hooks', description: 'ERP', events: ['supplier.created', 'stock_movement.created'], enabled: true };

describe('the event types', () => {
  it("are the API's own list, in its order", () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...EVENT_TYPES]);
  });
  it('are named in both languages, and an unknown one shows as its code', () => {
    for (const locale of ['pt-BR', 'en'] as const) {
      for (const type of DELIVERED_TYPES) expect(webhookMessages[locale].eventName(type), `${locale} ${type}`).not.toBe(type);
      expect(webhookMessages[locale].eventName('product.archived')).toBe('product.archived');
    }
    expect(webhookMessages['pt-BR'].eventName('supplier.created')).toBe('Fornecedor cadastrado');
    expect(webhookMessages.en.eventName('stock_movement.created')).toBe('Stock movement recorded');
    expect(webhookMessages['pt-BR'].eventName('ping')).toBe('Teste (ping)');
  });
});

describe('the register form', () => {
  it('keeps the events checked in the API’s order, once each', () => {
    const checked = withEvent(withEvent(withEvent(form(), 'stock_movement.created', true), 'company.created', true), 'stock_movement.created', true);
    expect(checked.events).toEqual(['company.created', 'stock_movement.created']);
    expect(withEvent(checked, 'company.created', false).events).toEqual(['stock_movement.created']);
    expect(withAllEvents(checked, true).events).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(withAllEvents(checked, false).events).toEqual([]);
  });

  it('asks for a whole URL and one event before sending; https and public addresses are the server’s to check', () => {
    expect(endpointFormProblems(form())).toEqual({ url: 'required', events: 'pickOne' });
    expect(endpointFormProblems(form({ url: 'erp.example.com/hooks', events: ['product.created'] }))).toEqual({ url: 'invalid' });
    expect(endpointFormProblems(form({ url: ' http://127.0.0.1:8080/hooks ', events: ['product.created'] }))).toEqual({});
  });

  it('sends the URL and description trimmed, and no description when none was given', () => {
    expect(createEndpointBody(form({ url: ' https://erp.example.com/hooks ', description: '  ', events: ['supplier.created'] }))).toEqual({
      url: 'https://erp.example.com/hooks',
      events: ['supplier.created'],
    });
    expect(createEndpointBody(form({ url: 'https://erp.example.com/hooks', description: ' ERP ', events: ['supplier.created'] }))).toEqual({
      url: 'https://erp.example.com/hooks',
      events: ['supplier.created'],
      description: 'ERP',
    });
  });
});

describe('the edit form', () => {
  it('starts from the endpoint as listed, dropping an event type the console does not know', () => {
    expect(formOf({ ...listed, description: null, events: ['supplier.created', 'product.archived'] })).toEqual({
      url: listed.url,
      description: '',
      events: ['supplier.created'],
      enabled: true,
    });
  });

  it('sends only what changed; an emptied description clears it', () => {
    const start = formOf(listed);
    expect(updateEndpointBody(listed, start)).toEqual({});
    expect(updateEndpointBody(listed, { ...start, events: ['stock_movement.created', 'supplier.created'] })).toEqual({});
    expect(updateEndpointBody(listed, { ...start, description: ' ' })).toEqual({ description: null });
    expect(updateEndpointBody(listed, { ...start, enabled: false, url: 'https://erp.example.com/v2 ' })).toEqual({
      enabled: false,
      url: 'https://erp.example.com/v2',
    });
    expect(updateEndpointBody(listed, withEvent(start, 'product.created', true))).toEqual({
      events: ['supplier.created', 'product.created', 'stock_movement.created'],
    });
  });
});

describe('an endpoint’s state', () => {
  it('is enabled, or disabled because it answered 410, failed for 3 days or was turned off', () => {
    expect(endpointState({ enabled: true, disabledReason: null })).toBe('enabled');
    expect(endpointState({ enabled: false, disabledReason: 'gone' })).toBe('gone');
    expect(endpointState({ enabled: false, disabledReason: 'failing' })).toBe('failing');
    expect(endpointState({ enabled: false, disabledReason: 'manual' })).toBe('manual');
    expect(endpointState({ enabled: false, disabledReason: null })).toBe('manual');
    expect(webhookMessages['pt-BR'].stateName('failing')).toBe('Desativado: 3 dias de falhas');
    expect(webhookMessages.en.stateName('gone')).toBe('Disabled: it answered 410 (Gone)');
  });
});

describe('the delivery log', () => {
  it('asks with only the filters chosen and the cursor', () => {
    expect(deliveriesQuery(NO_DELIVERY_FILTERS, undefined, 20)).toEqual({ limit: 20 });
    expect(deliveriesQuery({ status: 'failed', eventType: 'supplier.created' }, 'c1', 20)).toEqual({
      limit: 20,
      status: 'failed',
      eventType: 'supplier.created',
      cursor: 'c1',
    });
    expect(deliveriesQuery({ status: 'lost', eventType: 'planet.created' }, undefined, 5)).toEqual({ limit: 5 });
    // A test's deliveries are `ping`, which no endpoint subscribes to but the log filters on.
    expect(deliveriesQuery({ status: '', eventType: 'ping' }, undefined, 5)).toEqual({ limit: 5, eventType: 'ping' });
    expect(DELIVERED_TYPES).toEqual([...WEBHOOK_EVENT_TYPES, 'ping']);
  });

  it('says an attempt’s status code, or that no answer came', () => {
    expect(attemptOutcome(204)).toEqual({ kind: 'answered', statusCode: 204, ok: true });
    expect(attemptOutcome(500)).toEqual({ kind: 'answered', statusCode: 500, ok: false });
    expect(attemptOutcome(null)).toEqual({ kind: 'noAnswer' });
    expect(lastAttemptOf({ attempts: [] })).toBeUndefined();
    expect(
      lastAttemptOf({
        attempts: [
          { statusCode: null, latencyMs: 10_000 },
          { statusCode: 204, latencyMs: 12 },
        ],
      }),
    ).toEqual({ kind: 'answered', statusCode: 204, ok: true, latencyMs: 12 });
  });
});

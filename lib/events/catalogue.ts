import type { AuditAction } from '../audit/model';
import type { EventType } from './model';

/** The event each audited change publishes (the other actions publish none): lib/audit/record makes it with the entry. */
export const EVENT_OF_ACTION: Partial<Record<AuditAction, EventType>> = {
  'company.created': 'company.created',
  'company.updated': 'company.updated',
  'company.status_changed': 'company.status_changed',
  'supplier.created': 'supplier.created',
  'supplier.updated': 'supplier.updated',
  'supplier.deleted': 'supplier.deleted',
  'product.created': 'product.created',
  'product.updated': 'product.updated',
  'product.deleted': 'product.deleted',
  'warehouse.created': 'warehouse.created',
  'movement.created': 'stock_movement.created',
  'transfer.created': 'stock_transfer.created',
  'count.closed': 'stock_count.closed',
  'purchase_order.created': 'purchase_order.created',
  'purchase_order.updated': 'purchase_order.updated',
  'purchase_order.sent': 'purchase_order.sent',
  'purchase_order.cancelled': 'purchase_order.cancelled',
  'invitation.created': 'user.invited',
  'user.removed': 'user.removed',
};

/**
 * The events no audited action publishes: facts a change reveals rather than the change
 * itself, made where they are computed (./derived, `derivedEvent`) and written in that
 * change's own transaction beside the change's event. Each names where it is made. Every
 * type of EVENT_TYPES is published by an action above or is one of these.
 */
export const DERIVED_EVENTS = {
  /** A stock movement takes a product's coverage from at or above its tenant's threshold to below it (lib/inventory/stock-low). */
  'product.stock_low': 'lib/inventory/stock-low.ts',
} as const satisfies Partial<Record<EventType, string>>;
export type DerivedEventType = keyof typeof DERIVED_EVENTS;

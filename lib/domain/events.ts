/**
 * The shape of a domain event (lib/events): shared by the audit record that carries it into its
 * change's transaction and by the events' own code. Pure types and the list of types.
 */

export const EVENT_TYPES = [
  'company.created',
  'company.updated',
  'company.status_changed',
  'supplier.created',
  'supplier.updated',
  'supplier.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'product.stock_low',
  'warehouse.created',
  'stock_movement.created',
  'stock_transfer.created',
  'stock_count.closed',
  'purchase_order.created',
  'purchase_order.updated',
  'purchase_order.sent',
  'purchase_order.cancelled',
  'user.invited',
  'user.removed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The few fields a receiver routes on, beside the resource's id and tenant (a movement's product, warehouse and type; a company's status; a product running low's SKU, warehouse and coverage). */
export type EventFields = Record<string, string | number | boolean | null>;

/** One event, as stored and as delivered: `{ type, timestamp, data }` plus its id. */
export interface DomainEvent {
  /** Unique; a receiver deduplicates by it (the `webhook-id` of its deliveries). */
  id: string;
  type: EventType;
  /** When the change committed (ISO 8601 UTC), the same instant as its audit entry. */
  timestamp: string;
  data: { id: string; tenantId: string } & EventFields;
}

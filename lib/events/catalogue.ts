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
  'warehouse.created': 'warehouse.created',
  'movement.created': 'stock_movement.created',
  'invitation.created': 'user.invited',
  'user.removed': 'user.removed',
};

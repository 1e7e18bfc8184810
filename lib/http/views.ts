import * as z from 'zod';
import { sessionView, userView } from '../auth/schemas';
import { companyView } from '../companies/schemas';
import { MOVEMENT_TYPES } from '../inventory/schemas';
import { tenantView } from '../tenants/schemas';

/**
 * Response bodies that no domain module declares as a schema yet, written from the field
 * lists of interface.md and contract.md (and the services that build them). The handlers
 * name them in their specs, the OpenAPI document describes them, and the contract tests hold
 * every response to them, so a service that drifts from these shapes fails the integration
 * tests.
 *
 * `z.object` converts with `additionalProperties: false` on the output side: a response
 * that grows an undocumented field fails the contract too.
 */

/** Login, registration and refresh: `{ user }`. */
export const userEnvelopeView = z.object({ user: userView });

export const tenantListView = z.array(tenantView);
export const sessionListView = z.array(sessionView);
export const companyListView = z.array(companyView);

/** POST /auth/invitations: the invitation, valid for 7 days. */
export const invitationView = z.object({ id: z.uuid(), email: z.string(), expiresAt: z.iso.datetime() });

export const warehouseView = z.object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime() });
export const warehouseListView = z.array(warehouseView);

export const productView = z.object({ id: z.uuid(), sku: z.string(), name: z.string(), createdAt: z.iso.datetime() });
export const productListView = z.array(productView);

/** POST /inventory/movements: the movement as recorded, with the balance it left. */
export const movementView = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  warehouseId: z.uuid(),
  type: z.enum(MOVEMENT_TYPES),
  quantity: z.number(),
  /** Given for IN (and optionally ADJUSTMENT); null for OUT and SALE, which leave at the average. */
  unitCost: z.number().nullable(),
  occurredAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  balance: z.object({ quantity: z.number(), averageCost: z.number() }),
});

/** GET /inventory/dashboard/coverage, one per product. */
export const coverageItemView = z.object({
  productId: z.uuid(),
  sku: z.string(),
  name: z.string(),
  availableQuantity: z.number(),
  averageDailySales: z.number(),
  /** null when the product sold nothing in the period. */
  estimatedCoverageDays: z.number().nullable(),
});
export const coverageListView = z.array(coverageItemView);

/** GET /inventory/dashboard/by-warehouse, one per warehouse. */
export const warehouseSummaryView = z.object({
  warehouseId: z.uuid(),
  warehouseName: z.string(),
  totalItems: z.number(),
  totalProducts: z.number().int(),
  totalValue: z.number(),
});
export const warehouseSummaryListView = z.array(warehouseSummaryView);

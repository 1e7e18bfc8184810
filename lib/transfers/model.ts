import * as z from 'zod/mini';
import { COST_METHODS } from '../domain/companies';
import { schema } from '../domain/schema';

/**
 * A transfer: units of one product moved from one warehouse to another in one transaction, as
 * two movements of the stock history (TRANSFER_OUT at the source, TRANSFER_IN at the
 * destination), each naming the other warehouse. The value moved is the source's: what leaves
 * it at average cost, or, for a source whose company values at REPLACEMENT, the units at its
 * last cost; the destination takes that exact value and the source's last cost.
 */
export const transferSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    productId: z.uuid(),
    fromWarehouseId: z.uuid(),
    toWarehouseId: z.uuid(),
    /** The companies whose stock the warehouses hold (null for a warehouse of none): between two CNPJs a transfer is a fiscal operation, invoiced outside this service. */
    fromCompanyId: z.nullable(z.uuid()),
    toCompanyId: z.nullable(z.uuid()),
    /** Units moved, thousandths. */
    quantity: z.bigint(),
    /** The exact value moved, 10^-7 of the currency. */
    value: z.bigint(),
    /** How the source's company values stock, which decided `value`. */
    costMethod: z.enum(COST_METHODS),
    note: z.nullable(z.string()),
    occurredAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    /** The two movements of the stock history, and the balances they left (quantity in thousandths, costs in 10^-4). */
    outMovementId: z.uuid(),
    inMovementId: z.uuid(),
    fromAfter: z.object({ quantity: z.bigint(), averageCost: z.bigint(), lastCost: z.bigint() }),
    toAfter: z.object({ quantity: z.bigint(), averageCost: z.bigint(), lastCost: z.bigint() }),
  }),
);
export type Transfer = z.infer<typeof transferSchema>;

/** The longest note a transfer takes. */
export const MAX_TRANSFER_NOTE = 500;

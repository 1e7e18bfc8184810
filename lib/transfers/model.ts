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
    /** The transfer of several products it is one line of (./model `TransferBatch`); null for a transfer of one product. */
    batchId: z.nullable(z.uuid()),
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

/** The most products one transfer moves at once (`items`). */
export const MAX_TRANSFER_ITEMS = 50;

/** Lines of a transfer of several products that reach the destination in one transaction (23 items each). */
export const ARRIVAL_LINES_PER_TRANSACTION = 4;

export const TRANSFER_BATCH_STATUSES = ['IN_TRANSIT', 'COMPLETED'] as const;
export type TransferBatchStatus = (typeof TRANSFER_BATCH_STATUSES)[number];

/** A line of a transfer of several products: the transfer of its product, without the destination's balance until it arrived. */
export type TransferLine = Omit<Transfer, 'toAfter'> & { toAfter: Transfer['toAfter'] | null };

/**
 * A transfer of several products at once, all or none. It departs in ONE transaction: every
 * source balance goes down (each conditioned on its version, so one product short refuses them
 * all), with the source's totals, the audit entry and its event. Its lines then arrive in
 * bounded transactions of ARRIVAL_LINES_PER_TRANSACTION, each conditioned on `arrived`, so a
 * resumed or doubled arrival applies each line once: the destination's balances and totals,
 * both stock histories and the lists of transfers. Until the last arrives it is IN_TRANSIT
 * and its units are still the product's on hand (lib/integrity counts them in transit).
 */
export const transferBatchSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    fromWarehouseId: z.uuid(),
    toWarehouseId: z.uuid(),
    fromCompanyId: z.nullable(z.uuid()),
    toCompanyId: z.nullable(z.uuid()),
    costMethod: z.enum(COST_METHODS),
    note: z.nullable(z.string()),
    occurredAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    /** The business day of `occurredAt` (its movements'). */
    day: z.string(),
    status: z.enum(TRANSFER_BATCH_STATUSES),
    /** How many lines, in order, have arrived. */
    arrived: z.number().check(z.int()),
    lines: z.array(z.custom<TransferLine>()),
    completedAt: z.nullable(z.iso.datetime()),
  }),
);
export type TransferBatch = z.infer<typeof transferBatchSchema>;

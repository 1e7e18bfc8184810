import { randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import type { Caller } from '../auth/principal';
import { config } from '../config';
import { keys } from '../db/keys';
import { dayOf } from '../domain/days';
import { parseScaled, QUANTITY_PLACES } from '../domain/decimal';
import { uuidOf } from '../domain/hash';
import { IdempotencyKeyInUse, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { IDEMPOTENCY_TTL_SECONDS } from '../idempotency/service';
import { quantityFitsUnit } from '../inventory/model';
import { enqueue, type SendMessage } from '../background/queue';
import type { TenantJobMessage } from '../tenant-jobs/engine';
import { logger } from '../log';
import { arriveAll } from './arrival';
import { departBatch, findBatch, type DepartingLine } from './batch-repository';
import type { TransferBatchView, TransferBody } from './schemas';
import { transferBatchViewOf } from './views';

/**
 * Transfers of several products, all or none (./model `TransferBatch`): the departure in one
 * transaction decides; the arrival follows within the request, and when the request fails
 * after the departure, in the tenant jobs' queue (a `transfer-arrival` step) and on the
 * client's retry with its Idempotency-Key, whichever comes first: each line arrives once.
 */

export type TransferBatchInput = Omit<TransferBody, 'items' | 'productId' | 'quantity'> & { items: NonNullable<TransferBody['items']> };

/** How many ids of a key's chain a request looks at, at most (a key reused after its 24 hours takes the next one). */
const MAX_KEY_REUSES = 400;

/**
 * The batch's id. With an Idempotency-Key, made from the key: a retry whose first request died
 * after the departure finds that batch and carries it on. A key used again after its 24 hours
 * is a new request: the first id of the chain (each made from the one before) whose batch is
 * absent or younger than a key's life.
 */
async function batchIdFor(tenantId: string, idempotency: IdempotentWrite | undefined, nowMs: number): Promise<string> {
  if (!idempotency) return randomUUID();
  const key = keys.idempotency(idempotency.claim.caller, idempotency.claim.keyHash);
  let id = uuidOf(`transfer-batch:${key.pk}|${key.sk}`);
  for (let hop = 0; hop < MAX_KEY_REUSES; hop += 1) {
    const found = await findBatch(tenantId, id);
    if (!found || Date.parse(found.createdAt) > nowMs - IDEMPOTENCY_TTL_SECONDS * 1000) return id;
    id = uuidOf(id);
  }
  return randomUUID();
}

/** Move several products between two warehouses of the tenant, all or none: 201 when every line arrived; 409 one short (nothing written). */
export async function createTransferBatch(
  principal: Caller,
  input: TransferBatchInput,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<TransferBatchView> {
  const occurredMs = input.occurredAt ? Date.parse(input.occurredAt) : nowMs;
  if (occurredMs > nowMs) throw ValidationError.of('occurredAt', 'must not be in the future');
  const lines: DepartingLine[] = input.items.map((item, index) => {
    const quantity = parseScaled(item.quantity, QUANTITY_PLACES);
    if (quantity === undefined) throw ValidationError.of(`items.${index}.quantity`, `must have at most ${QUANTITY_PLACES} decimal places`);
    return { productId: item.productId, quantity };
  });
  const tenantId = principal.tenantId;
  const batchId = await batchIdFor(tenantId, idempotency, nowMs);
  const occurredAt = new Date(occurredMs).toISOString();
  const createdAt = new Date(nowMs).toISOString();
  const audit = auditRecord(
    {
      scope: { tenantId },
      action: 'transfer.created',
      resource: { type: 'transfer', id: batchId },
      eventFields: { fromWarehouseId: input.fromWarehouseId, toWarehouseId: input.toWarehouseId, items: lines.length },
    },
    nowMs,
  );
  await departBatch(
    tenantId,
    { batchId, fromWarehouseId: input.fromWarehouseId, toWarehouseId: input.toWarehouseId, lines },
    {
      admit: (product, index) => {
        if (!quantityFitsUnit((lines[index] as DepartingLine).quantity, product.unit))
          throw ValidationError.of(`items.${index}.quantity`, `must be a whole number: the product is counted in ${product.unit}, which takes no fractions`);
      },
      build: ({ costMethod, fromCompanyId, toCompanyId, lines: departed }) => ({
        id: batchId,
        fromWarehouseId: input.fromWarehouseId,
        toWarehouseId: input.toWarehouseId,
        fromCompanyId,
        toCompanyId,
        costMethod,
        note: input.note ?? null,
        occurredAt,
        createdAt,
        day: dayOf(occurredMs, config().BUSINESS_TIME_ZONE),
        status: 'IN_TRANSIT',
        arrived: 0,
        completedAt: null,
        lines: lines.map((line, index) => {
          const { value, fromAfter } = departed[index] as (typeof departed)[number];
          return {
            id: randomUUID(),
            productId: line.productId,
            fromWarehouseId: input.fromWarehouseId,
            toWarehouseId: input.toWarehouseId,
            fromCompanyId,
            toCompanyId,
            quantity: line.quantity,
            value,
            costMethod,
            note: input.note ?? null,
            batchId,
            occurredAt,
            createdAt,
            outMovementId: randomUUID(),
            inMovementId: randomUUID(),
            fromAfter: { quantity: fromAfter.quantity, averageCost: fromAfter.averageCost, lastCost: fromAfter.lastCost },
            toAfter: null,
          };
        }),
      }),
    },
    audit,
  );
  try {
    return transferBatchViewOf(await arriveAll(tenantId, batchId, nowMs, idempotency));
  } catch (error) {
    if (error instanceof IdempotencyKeyInUse) throw error;
    // The units left; they arrive in the background (and on a retry with the key), not never.
    await sendArrival(tenantId, batchId).catch((sendError: unknown) =>
      logger.error('transfer arrival not queued', { error: sendError as Error, tenantId, batchId }),
    );
    throw error;
  }
}

/**
 * The arrival handed to the tenant jobs' queue. Only a failed request sends, so the SQS client is
 * loaded then (`import()`: in the bundle, not evaluated at its cold start); under npm start the
 * local queue folder; in a test without either, the arrival runs in this process.
 */
async function sendArrival(tenantId: string, batchId: string): Promise<void> {
  const message: TenantJobMessage = { type: 'transfer-arrival', tenantId, batchId, step: 0 };
  const send: SendMessage = async (url, body) => (await import('../background/sqs')).sendMessage(url, body);
  if (await enqueue('tenant-jobs', `${tenantId}.transfer-arrival.${batchId}`, message, send)) return;
  IN_PROCESS: {
    void arriveAll(tenantId, batchId, Date.now()).catch((error: unknown) =>
      logger.error('transfer arrival failed in process', { error: error as Error, tenantId, batchId }),
    );
  }
}

import type { IdempotentWrite } from '../idempotency/model';
import { arriveNext } from './batch-repository';
import type { TransferBatch } from './model';
import { transferBatchViewOf } from './views';

/**
 * The arrival of a transfer of several products (./model `TransferBatch`): within its request,
 * or as the tenant jobs' `transfer-arrival` step when the request failed after the departure.
 */

/** Every line still to arrive, in bounded transactions; the batch COMPLETED. */
export async function arriveAll(tenantId: string, batchId: string, nowMs: number, idempotency?: IdempotentWrite): Promise<TransferBatch> {
  const completion = idempotency && { write: idempotency, view: transferBatchViewOf };
  const nowIso = new Date(nowMs).toISOString();
  let batch = await arriveNext(tenantId, batchId, completion, nowIso);
  while (batch.status !== 'COMPLETED') batch = await arriveNext(tenantId, batchId, completion, nowIso);
  return batch;
}

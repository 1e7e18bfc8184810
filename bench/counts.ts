/**
 * `npm run bench -- counts`: the close of a stock count of 5,000 lines, on DynamoDB Local,
 * with the code the close route and the tenant jobs' worker run (lib/counts/close), in process:
 * - a warehouse of 5,000 products with stock, each counted (PUT of its line, through the
 *   service, four at a time: what a few phones counting at once send);
 * - the close, every line applied (target: under a minute);
 * - the strongest baseline, in the same run: the same kind of adjustment recorded one product at
 *   a time as POST /inventory/movements does (one transaction each, the route's own service),
 *   for 1,000 products of a second warehouse, as lines per second; the ratio is the close's pace
 *   over the baseline's;
 * - then the warehouse's totals are what the counted lines say.
 */
import { continueClose } from '../lib/counts/close';
import { closeCount, createCount, setLine } from '../lib/counts/service';
import { findCount } from '../lib/counts/repository';
import { mapConcurrently } from '../lib/domain/concurrency';
import { findWarehouse } from '../lib/inventory/repository';
import { addMovement, createProduct, createWarehouse } from '../lib/inventory/service';
import { benchTenant } from './support/principal';

export interface CountCloseBench {
  lines: number;
  countingSeconds: number;
  closeSeconds: number;
  closeLinesPerSecond: number;
  baselineLines: number;
  baselineLinesPerSecond: number;
  /** The close's lines per second over the baseline's. */
  paceRatio: number;
  target: string;
  met: boolean;
}

const WIDTH = 16;
const COUNTING_WIDTH = 4;
const BASELINE_LINES = 1_000;

const seconds = (startedMs: number) => Math.round((performance.now() - startedMs) / 100) / 10;

export async function runCountCloseBench(log: (line: string) => void, lines = 5_000): Promise<CountCloseBench> {
  const admin = await benchTenant('counts');
  const now = () => Date.now();
  const counted = await createWarehouse(admin, { name: 'Contado' }, now());
  const baseline = await createWarehouse(admin, { name: 'Base' }, now());
  const seeding = performance.now();
  const products = await mapConcurrently(
    Array.from({ length: lines }, (_, index) => index),
    WIDTH,
    async (index) => {
      const product = await createProduct(admin, { sku: `CNT-${String(index).padStart(5, '0')}`, name: `Produto ${index}` }, now());
      await addMovement(admin, { productId: product.id, warehouseId: counted.id, type: 'IN', quantity: 10, unitCost: 2.5 }, now());
      if (index < BASELINE_LINES) await addMovement(admin, { productId: product.id, warehouseId: baseline.id, type: 'IN', quantity: 10, unitCost: 2.5 }, now());
      return product;
    },
  );
  log(`counts: ${lines} products stocked in ${seconds(seeding)} s`);

  const count = await createCount(admin, { warehouseId: counted.id }, now());
  const counting = performance.now();
  // Every line counted 9 or 11 (one short or one over): each closes to an adjustment.
  await mapConcurrently(products, COUNTING_WIDTH, (product, index) => setLine(admin, count.id, product.id, { counted: index % 2 === 0 ? 9 : 11 }, now()));
  const countingSeconds = seconds(counting);
  log(`counts: ${lines} lines counted in ${countingSeconds} s`);

  // The close with no budget (the worker's), after the route's own first step.
  const closing = performance.now();
  const started = await closeCount(admin, count.id, { uncounted: 'ignore' }, now());
  if (started.status !== 'CLOSED') await continueClose(admin.tenantId, count.id, now());
  const closeSeconds = seconds(closing);
  const closed = await findCount(admin.tenantId, count.id);
  if (closed?.status !== 'CLOSED' || closed.applied !== lines)
    throw new Error(`counts: the close ended ${closed?.status} with ${closed?.applied} of ${lines} applied`);
  const totals = await findWarehouse(admin.tenantId, counted.id);
  // Half the lines at 9, half at 11: the same 10 a product on average.
  if (totals?.totalItems !== BigInt(lines) * 10_000n) throw new Error(`counts: the warehouse holds ${totals?.totalItems} thousandths after the close`);
  log(`counts: closed ${lines} lines in ${closeSeconds} s`);

  const baselineStarted = performance.now();
  for (const [index, product] of products.slice(0, BASELINE_LINES).entries()) {
    await addMovement(admin, { productId: product.id, warehouseId: baseline.id, type: 'ADJUSTMENT', quantity: index % 2 === 0 ? 9 : 11 }, now());
  }
  const baselineSeconds = seconds(baselineStarted);
  log(`counts: baseline ${BASELINE_LINES} adjustments one by one in ${baselineSeconds} s`);

  const closeLinesPerSecond = Math.round(lines / closeSeconds);
  const baselineLinesPerSecond = Math.round(BASELINE_LINES / baselineSeconds);
  return {
    lines,
    countingSeconds,
    closeSeconds,
    closeLinesPerSecond,
    baselineLines: BASELINE_LINES,
    baselineLinesPerSecond,
    paceRatio: Math.round((closeLinesPerSecond / baselineLinesPerSecond) * 100) / 100,
    target: '< 60 s',
    met: closeSeconds < 60,
  };
}

import { auditRecord } from '../audit/record';
import type { Caller } from '../auth/principal';
import { getMany } from '../db/batch';
import { keys } from '../db/keys';
import { parseScaled, QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES } from '../domain/decimal';
import { NotFound, ValidationError } from '../errors';
import { coverageStateOf, readShortOfCover } from '../inventory/coverage-repository';
import { quantityFitsUnit } from '../inventory/model';
import { toProduct } from '../inventory/product-repository';
import { listWarehouses, toBalance } from '../inventory/repository';
import { quantityOf } from '../inventory/rounding';
import { openPageCursor, sealPageCursor, type Page } from '../pages';
import type { SupplierProduct } from '../supplier-products/model';
import { readAllSupplierProducts, readSupplierProducts } from '../supplier-products/repository';
import { DEFAULT_SAFETY_DAYS, DEFAULT_TARGET_DAYS, MAX_REORDER_DAYS, suggestedQuantity, type ReorderSettings } from './model';
import { putReorderSettings, readAllReorderSettings, readWarehouseOnOrder } from './repository';
import type { ReorderSettingsBody, ReorderSettingsView, SuggestionsInput, SuggestionView } from './schemas';

/**
 * Reorder settings and purchase suggestions: what to buy, from whom, computed from the coverage
 * roll-up's sales, the stock, what is on order, each supplier's terms and the settings.
 */

export const reorderSettingsViewOf = (settings: ReorderSettings): ReorderSettingsView => ({
  productId: settings.productId,
  warehouseId: settings.warehouseId,
  reorderPoint: settings.reorderPoint === null ? null : quantityOf(settings.reorderPoint),
  targetDays: settings.targetDays,
  safetyDays: settings.safetyDays,
  updatedAt: settings.updatedAt,
});

/** Set a product's reorder settings for a warehouse (or all): the fields not given take their defaults. 404 for a product or warehouse not the tenant's. */
export async function setReorderSettings(
  principal: Pick<Caller, 'tenantId'>,
  productId: string,
  body: ReorderSettingsBody,
  nowMs: number,
): Promise<ReorderSettingsView> {
  const warehouseId = body.warehouseId ?? null;
  if (warehouseId !== null) {
    const [warehouse] = await getMany([keys.warehouse(principal.tenantId, warehouseId)]);
    if (!warehouse) throw new NotFound('No such warehouse');
  }
  let reorderPoint: bigint | null = null;
  if (body.reorderPoint !== undefined && body.reorderPoint !== null) {
    const parsed = parseScaled(body.reorderPoint, QUANTITY_PLACES);
    if (parsed === undefined) throw ValidationError.of('reorderPoint', `must have at most ${QUANTITY_PLACES} decimal places`);
    reorderPoint = parsed;
  }
  const settings: ReorderSettings = {
    productId,
    warehouseId,
    reorderPoint,
    targetDays: body.targetDays ?? DEFAULT_TARGET_DAYS,
    safetyDays: body.safetyDays ?? DEFAULT_SAFETY_DAYS,
    updatedAt: new Date(nowMs).toISOString(),
  };
  const audit = auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action: 'product.reorder_set',
      resource: { type: 'product', id: productId },
      changes: [{ field: 'reorder', before: null, after: reorderSettingsViewOf(settings) }],
    },
    nowMs,
  );
  if (!(await putReorderSettings(principal.tenantId, settings, audit))) throw new NotFound('No such product');
  return reorderSettingsViewOf(settings);
}

/** What a candidate is computed from. */
interface Candidate {
  productId: string;
  sku: string;
  name: string;
  onHand: bigint;
  sold: bigint;
  whole: boolean;
}

/**
 * The suggestions, by SKU, a page after the cursor. Cheap for a supplier without a warehouse:
 * the supplier's links (one Query), the products short of cover (a key-range Query of the
 * coverage index, which is ordered by days of cover), those with a reorder point, and what is on
 * order (one compact partition per warehouse). For a warehouse, the linked products' balances
 * there are read too (its stock is not in the index).
 */
export async function listSuggestions(
  principal: Pick<Caller, 'tenantId'>,
  input: SuggestionsInput,
): Promise<Page<SuggestionView> & { salesThrough: string | null }> {
  const tenantId = principal.tenantId;
  const cursorScope = { tenantId, filters: { list: 'suggestions', supplierId: input.supplierId, warehouseId: input.warehouseId, days: String(input.days) } };
  const after = (await openPageCursor(input.cursor, cursorScope))?.sk;
  if (input.warehouseId) {
    const [warehouse] = await getMany([keys.warehouse(tenantId, input.warehouseId)]);
    if (!warehouse) throw new NotFound('No such warehouse');
  }
  const settingsList = await readAllReorderSettings(tenantId);
  const settingsOf = (productId: string): Omit<ReorderSettings, 'updatedAt'> =>
    settingsList.find((settings) => settings.productId === productId && settings.warehouseId === (input.warehouseId ?? null)) ??
    settingsList.find((settings) => settings.productId === productId && settings.warehouseId === null) ?? {
      productId,
      warehouseId: null,
      reorderPoint: null,
      targetDays: DEFAULT_TARGET_DAYS,
      safetyDays: DEFAULT_SAFETY_DAYS,
    };

  // Who sells what: the supplier's links, or each product's preferred supplier's.
  let links: Map<string, SupplierProduct>;
  if (input.supplierId) {
    const [supplier] = await getMany([keys.supplier(tenantId, input.supplierId)]);
    if (!supplier) throw new NotFound('No such supplier');
    links = new Map((await readAllSupplierProducts(tenantId, input.supplierId)).map((link) => [link.productId, link]));
  } else links = new Map();

  // The candidates: short of cover at the longest lead time + safety days any of them could have, and those with a reorder point.
  const horizon = input.supplierId
    ? Math.max(0, ...[...links.values()].map((link) => link.leadTimeDays + settingsOf(link.productId).safetyDays))
    : 2 * MAX_REORDER_DAYS;
  const short = input.warehouseId
    ? await readShortOfCover(tenantId, input.days, undefined)
    : await readShortOfCover(tenantId, input.days, BigInt(horizon) * 100n);
  const candidates = new Map<string, Candidate>(
    short.rows.map((row) => [
      row.product.id,
      { productId: row.product.id, sku: row.product.sku, name: row.product.name, onHand: row.product.onHand, sold: row.sold, whole: true },
    ]),
  );
  const withPoint = settingsList
    .filter((settings) => settings.reorderPoint !== null && !candidates.has(settings.productId))
    .map((settings) => settings.productId);
  const scope = (productIds: string[]) => (input.supplierId ? productIds.filter((productId) => links.has(productId)) : productIds);
  const extra = scope([...new Set(withPoint)]);
  const productItems = await getMany([...scope([...candidates.keys()]), ...extra].map((productId) => keys.product(tenantId, productId)));
  const read = new Set(productItems.flatMap((item) => (item ? [String(item.id)] : [])));
  for (const item of productItems) {
    if (!item) continue;
    const product = toProduct(item);
    const known = candidates.get(product.id);
    candidates.set(product.id, {
      productId: product.id,
      sku: product.sku,
      name: product.name,
      onHand: product.onHand,
      sold: known?.sold ?? coverageStateOf(item).sold?.get(input.days) ?? 0n,
      whole: !quantityFitsUnit(1n, product.unit),
    });
  }
  const inScope = scope([...candidates.keys()]).filter((productId) => read.has(productId));

  if (!input.supplierId) {
    const markers = await getMany(inScope.map((productId) => keys.preferredSupplier(tenantId, productId)));
    const pairs = markers.flatMap((marker) => (marker ? [{ supplierId: String(marker.supplierId), productId: String(marker.productId) }] : []));
    links = new Map((await readSupplierProducts(tenantId, pairs)).flatMap((link) => (link ? [[link.productId, link] as const] : [])));
  }

  const available = new Map<string, bigint>();
  if (input.warehouseId) {
    const balances = await getMany(inScope.map((productId) => keys.stock(tenantId, productId, input.warehouseId as string)));
    inScope.forEach((productId, index) => available.set(productId, toBalance(balances[index]).quantity));
  }
  const warehouses = input.warehouseId ? [input.warehouseId] : (await listWarehouses(tenantId)).map((warehouse) => warehouse.id);
  const onOrder = new Map<string, bigint>();
  for (const warehouseId of warehouses)
    for (const [productId, quantity] of await readWarehouseOnOrder(tenantId, warehouseId)) onOrder.set(productId, (onOrder.get(productId) ?? 0n) + quantity);

  const suggestions: (SuggestionView & { order: string })[] = [];
  for (const productId of inScope) {
    const candidate = candidates.get(productId) as Candidate;
    const link = links.get(productId);
    if (!link) continue;
    const settings = settingsOf(productId);
    const stock = input.warehouseId ? (available.get(productId) ?? 0n) : candidate.onHand;
    const ordered = onOrder.get(productId) ?? 0n;
    const quantity = suggestedQuantity({
      sold: candidate.sold,
      days: input.days,
      available: stock,
      onOrder: ordered,
      leadTimeDays: link.leadTimeDays,
      safetyDays: settings.safetyDays,
      targetDays: settings.targetDays,
      reorderPoint: settings.reorderPoint,
      unitsPerPack: link.unitsPerPack,
      minimumOrder: link.minimumOrder,
      whole: candidate.whole,
    });
    if (quantity === 0n) continue;
    suggestions.push({
      order: `${candidate.sku}#${productId}`,
      productId,
      sku: candidate.sku,
      name: candidate.name,
      supplierId: link.supplierId,
      suggestedQuantity: quantityOf(quantity),
      packs: Number(quantity / link.unitsPerPack),
      // Units a day, to 3 places (thousandths per day, rounded down: it is shown, not computed with).
      averageDailySales: scaledToNumber(candidate.sold / BigInt(input.days), QUANTITY_PLACES),
      available: quantityOf(stock),
      onOrder: quantityOf(ordered),
      leadTimeDays: link.leadTimeDays,
      safetyDays: settings.safetyDays,
      targetDays: settings.targetDays,
      reorderPoint: settings.reorderPoint === null ? null : quantityOf(settings.reorderPoint),
      unitsPerPack: quantityOf(link.unitsPerPack),
      minimumOrder: link.minimumOrder === null ? null : quantityOf(link.minimumOrder),
      lastCost: link.lastCost === null ? null : scaledToNumber(link.lastCost, UNIT_COST_PLACES),
    });
  }
  suggestions.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  const start = after === undefined ? 0 : suggestions.findIndex((suggestion) => suggestion.order > after);
  const page = start < 0 ? [] : suggestions.slice(start, start + input.limit);
  const more = start >= 0 && start + input.limit < suggestions.length;
  return {
    items: page.map(({ order: _order, ...view }) => view),
    salesThrough: short.figuresOf ?? null,
    nextCursor: await sealPageCursor(more ? { sk: page.at(-1)?.order ?? '' } : undefined, cursorScope),
  };
}

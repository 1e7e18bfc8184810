import { auditRecord, changesOf } from '../audit/record';
import type { Caller } from '../auth/principal';
import { getMany } from '../db/batch';
import { keys } from '../db/keys';
import { parseScaled, QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES } from '../domain/decimal';
import { matchedVersions, requireMatch, versionEtag } from '../domain/etag';
import { NotFound, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { quantityOf } from '../inventory/rounding';
import { keyOrderedPage, type Page } from '../pages';
import { DEFAULT_LEAD_TIME_DAYS, type SupplierProduct } from './model';
import { findSupplierProduct, insertSupplierProduct, modifySupplierProduct, readLinkPage, removeSupplierProduct } from './repository';
import type { CreateSupplierProductBody, ListSupplierProductsInput, SupplierProductView, UpdateSupplierProductBody } from './schemas';

/**
 * What each supplier sells: link a product to a supplier with its terms, change them
 * (If-Match), unlink; a supplier's products and a product's suppliers, in pages.
 */

/** What an update's audit entry compares. */
const AUDITED_FIELDS = ['supplierCode', 'unit', 'unitsPerPack', 'lastCost', 'leadTimeDays', 'minimumOrder', 'preferred'] as const;

const resourceOf = (link: Pick<SupplierProduct, 'supplierId' | 'productId'>) => ({
  type: 'supplier_product' as const,
  id: `${link.supplierId}:${link.productId}`,
});

/** The ETag of a link. */
export const supplierProductEtag = (link: { version: number }): string => versionEtag(link);

/** The names the views show, read as they are now: the products' SKU and name, the suppliers' names. */
async function namesOf(tenantId: string, links: readonly SupplierProduct[]) {
  const productIds = [...new Set(links.map((link) => link.productId))];
  const supplierIds = [...new Set(links.map((link) => link.supplierId))];
  const items = await getMany([...productIds.map((id) => keys.product(tenantId, id)), ...supplierIds.map((id) => keys.supplier(tenantId, id))]);
  const products = new Map(productIds.map((id, index) => [id, items[index]]));
  const suppliers = new Map(supplierIds.map((id, index) => [id, items[productIds.length + index]]));
  return { products, suppliers };
}

async function viewsOf(tenantId: string, links: readonly SupplierProduct[]): Promise<SupplierProductView[]> {
  const { products, suppliers } = await namesOf(tenantId, links);
  return links.map((link) => {
    const product = products.get(link.productId);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      supplierId: link.supplierId,
      supplierName: text(suppliers.get(link.supplierId)?.name),
      productId: link.productId,
      sku: text(product?.sku),
      productName: text(product?.name),
      supplierCode: link.supplierCode,
      unit: link.unit,
      unitsPerPack: quantityOf(link.unitsPerPack),
      lastCost: link.lastCost === null ? null : scaledToNumber(link.lastCost, UNIT_COST_PLACES),
      leadTimeDays: link.leadTimeDays,
      minimumOrder: link.minimumOrder === null ? null : quantityOf(link.minimumOrder),
      preferred: link.preferred,
      createdAt: link.createdAt,
      updatedAt: link.updatedAt,
      version: link.version,
    };
  });
}

const viewOf = async (tenantId: string, link: SupplierProduct): Promise<SupplierProductView> => (await viewsOf(tenantId, [link]))[0] as SupplierProductView;

const scaled = (value: number, places: number, field: string): bigint => {
  const parsed = parseScaled(value, places);
  if (parsed === undefined) throw ValidationError.of(field, `must have at most ${places} decimal places`);
  return parsed;
};

/** The terms a body gives, over `base` (a field absent keeps base's; null clears an optional one). */
function withTerms(base: SupplierProduct, body: UpdateSupplierProductBody): SupplierProduct {
  return {
    ...base,
    ...(body.supplierCode === undefined ? {} : { supplierCode: body.supplierCode }),
    ...(body.unit === undefined ? {} : { unit: body.unit }),
    ...(body.unitsPerPack === undefined ? {} : { unitsPerPack: scaled(body.unitsPerPack, QUANTITY_PLACES, 'unitsPerPack') }),
    ...(body.lastCost === undefined ? {} : { lastCost: body.lastCost === null ? null : scaled(body.lastCost, UNIT_COST_PLACES, 'lastCost') }),
    ...(body.leadTimeDays === undefined ? {} : { leadTimeDays: body.leadTimeDays }),
    ...(body.minimumOrder === undefined
      ? {}
      : { minimumOrder: body.minimumOrder === null ? null : scaled(body.minimumOrder, QUANTITY_PLACES, 'minimumOrder') }),
    ...(body.preferred === undefined ? {} : { preferred: body.preferred }),
  };
}

/** A supplier sells a product: 201; 404 supplier or product; 409 already linked, or its code is the supplier's for another product. */
export async function linkSupplierProduct(
  principal: Pick<Caller, 'tenantId'>,
  supplierId: string,
  body: CreateSupplierProductBody,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<SupplierProductView> {
  const now = new Date(nowMs).toISOString();
  const { productId, ...terms } = body;
  const link = withTerms(
    {
      supplierId,
      productId,
      supplierCode: null,
      unit: null,
      unitsPerPack: 1000n,
      lastCost: null,
      leadTimeDays: DEFAULT_LEAD_TIME_DAYS,
      minimumOrder: null,
      preferred: false,
      createdAt: now,
      updatedAt: now,
      version: 1,
    },
    terms,
  );
  const view = await viewOf(principal.tenantId, link);
  if (!view.sku) throw new NotFound('No such product');
  if (!view.supplierName) throw new NotFound('No such supplier');
  const audit = auditRecord({ scope: { tenantId: principal.tenantId }, action: 'supplier_product.created', resource: resourceOf(link) }, nowMs);
  await insertSupplierProduct(principal.tenantId, link, audit, idempotency && { write: idempotency, view });
  return view;
}

/** Change a link's terms; with an If-Match, only at the version it names (412). */
export async function updateSupplierProduct(
  principal: Pick<Caller, 'tenantId'>,
  at: { supplierId: string; productId: string },
  body: UpdateSupplierProductBody,
  ifMatch: string | undefined,
  nowMs: number,
): Promise<SupplierProductView> {
  const expected = matchedVersions(ifMatch, 'supplier product');
  const after = await modifySupplierProduct(
    principal.tenantId,
    at,
    (current) => {
      requireMatch(expected, current.version, 'supplier product');
      return { ...withTerms(current, body), updatedAt: new Date(nowMs).toISOString(), version: current.version + 1 };
    },
    (before, changed) =>
      auditRecord(
        {
          scope: { tenantId: principal.tenantId },
          action: 'supplier_product.updated',
          resource: resourceOf(changed),
          changes: changesOf(viewFields(before), viewFields(changed), AUDITED_FIELDS),
        },
        nowMs,
      ),
  );
  return viewOf(principal.tenantId, after);
}

/** The audited fields as the API shows them (exact decimals as numbers of their places). */
const viewFields = (link: SupplierProduct) => ({
  supplierCode: link.supplierCode,
  unit: link.unit,
  unitsPerPack: quantityOf(link.unitsPerPack),
  lastCost: link.lastCost === null ? null : scaledToNumber(link.lastCost, UNIT_COST_PLACES),
  leadTimeDays: link.leadTimeDays,
  minimumOrder: link.minimumOrder === null ? null : quantityOf(link.minimumOrder),
  preferred: link.preferred,
});

/** The supplier no longer sells the product (If-Match as for a change). */
export async function unlinkSupplierProduct(
  principal: Pick<Caller, 'tenantId'>,
  at: { supplierId: string; productId: string },
  ifMatch: string | undefined,
  nowMs: number,
): Promise<void> {
  const expected = matchedVersions(ifMatch, 'supplier product');
  await removeSupplierProduct(
    principal.tenantId,
    at,
    (current) => requireMatch(expected, current.version, 'supplier product'),
    (link) => auditRecord({ scope: { tenantId: principal.tenantId }, action: 'supplier_product.deleted', resource: resourceOf(link) }, nowMs),
  );
}

/** One link, for its ETag. */
export async function getSupplierProduct(principal: Pick<Caller, 'tenantId'>, at: { supplierId: string; productId: string }): Promise<SupplierProductView> {
  const link = await findSupplierProduct(principal.tenantId, at.supplierId, at.productId);
  if (!link) throw new NotFound('The supplier does not sell this product');
  return viewOf(principal.tenantId, link);
}

/** A page of a supplier's products, or of a product's suppliers (404 for an unknown supplier or product). */
export async function listSupplierProducts(
  principal: Pick<Caller, 'tenantId'>,
  of: { supplierId: string } | { productId: string },
  query: ListSupplierProductsInput,
): Promise<Page<SupplierProductView>> {
  const [owner] = await getMany(['supplierId' in of ? keys.supplier(principal.tenantId, of.supplierId) : keys.product(principal.tenantId, of.productId)]);
  if (!owner) throw new NotFound('supplierId' in of ? 'No such supplier' : 'No such product');
  const scope = { tenantId: principal.tenantId, filters: { list: 'supplier-products', ...of } };
  const page = await keyOrderedPage(scope, { limit: query.limit, cursor: query.cursor }, (at) => readLinkPage(principal.tenantId, of, at));
  return { ...page, items: await viewsOf(principal.tenantId, page.items) };
}

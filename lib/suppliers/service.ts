import { randomUUID } from 'node:crypto';
import { auditRecord, changesOf } from '../audit/record';
import { consumeLimit, type ScopedLimit } from '../rate-limit';
import { callerId, type Caller } from '../auth/principal';
import { NotFound } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { findSupplier, insertSupplier, modifySupplier, readSupplierPage, removeSupplier, supplierSearchSource } from './repository';
import { formatDocument } from '../domain/documents';
import type { Supplier } from './model';
import type { ListSuppliersInput } from './queries';
import type { CreateSupplierInput, SupplierPageView, SupplierView, UpdateSupplierInput } from './schemas';
import { supplierFieldsOf, type SupplierFields } from './search';
import { searchList } from '../search/engine';
import { searchQuery } from '../search/query';

/** What an update's audit entry compares (its timestamps are not the caller's change). */
const AUDITED_FIELDS = ['name', 'corporateName', 'document', 'email', 'phone', 'active'] as const satisfies readonly (keyof Supplier)[];

/** The Supplier of the API: the entity without its timestamps, document formatted with punctuation. */
export const toSupplierView = ({ id, name, corporateName, document, email, phone, active }: SupplierFields): SupplierView => ({
  id,
  name,
  corporateName,
  document: formatDocument(document),
  email,
  phone,
  active,
});

/** A new supplier of the caller's tenant, active unless said otherwise; 409 when the tenant already has its document. */
export async function createSupplier(
  principal: Pick<Caller, 'tenantId'>,
  input: CreateSupplierInput,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<SupplierView> {
  const now = new Date(nowMs).toISOString();
  const supplier: Supplier = {
    id: randomUUID(),
    name: input.name,
    corporateName: input.corporateName,
    document: input.document,
    email: input.email ?? null,
    phone: input.phone ?? null,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: now,
  };
  const view = toSupplierView(supplier);
  const audit = auditRecord({ scope: { tenantId: principal.tenantId }, action: 'supplier.created', resource: { type: 'supplier', id: supplier.id } }, nowMs);
  await insertSupplier(principal.tenantId, supplier, audit, idempotency && { write: idempotency, view });
  return view;
}

/** One supplier of the caller's tenant; 404 for an unknown id and for another tenant's (its existence is not disclosed). */
export async function getSupplier(principal: Caller, supplierId: string): Promise<SupplierView> {
  const supplier = await findSupplier(principal.tenantId, supplierId);
  if (!supplier) throw new NotFound('No such supplier');
  return toSupplierView(supplier);
}

/**
 * Apply the given fields (null clears email or phone); 404 outside the caller's tenant, 409 for
 * a taken document. Its audit entry lists the fields that changed from the supplier as the
 * write that commits read it (none when the values given were the ones it had: still one entry).
 */
export async function updateSupplier(principal: Caller, supplierId: string, changes: UpdateSupplierInput, nowMs: number): Promise<SupplierView> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<Supplier>;
  const updatedAt = new Date(nowMs).toISOString();
  const supplier = await modifySupplier(
    principal.tenantId,
    supplierId,
    (current) => ({ ...current, ...given, updatedAt }),
    (before, after) =>
      auditRecord(
        {
          scope: { tenantId: principal.tenantId },
          action: 'supplier.updated',
          resource: { type: 'supplier', id: supplierId },
          changes: changesOf(before, after, AUDITED_FIELDS),
        },
        nowMs,
      ),
  );
  return toSupplierView(supplier);
}

/**
 * Delete a supplier of the caller's tenant for good (docs/decisions.md, Suppliers): gone from
 * the list and its count, its document free for another supplier. 404 outside the caller's
 * tenant or when it is already gone.
 */
export async function deleteSupplier(principal: Caller, supplierId: string, nowMs: number): Promise<void> {
  await removeSupplier(
    principal.tenantId,
    supplierId,
    auditRecord({ scope: { tenantId: principal.tenantId }, action: 'supplier.deleted', resource: { type: 'supplier', id: supplierId } }, nowMs),
  );
}

/**
 * A page of the caller's tenant's suppliers by name (case- and accent-insensitive, ties by
 * id), searched when `search` is not blank; `total` counts every match.
 */
export async function listSuppliers(principal: Caller, query: ListSuppliersInput, nowMs: number, searches: ScopedLimit | undefined): Promise<SupplierPageView> {
  const offset = (query.page - 1) * query.limit;
  const search = query.search === undefined ? undefined : searchQuery(query.search);
  // A search on a cold function loads the tenant's suppliers: each user's searches are
  // limited (the manifest's; undefined for the benchmarks that measure the read itself).
  if (search && searches) await consumeLimit(searches, { ip: '', userId: callerId(principal) }, nowMs);
  if (!search) {
    const { suppliers, total } = await readSupplierPage(principal.tenantId, offset, query.limit);
    return { data: suppliers.map(toSupplierView), total, page: query.page, limit: query.limit };
  }
  const { records, total } = await searchList(supplierSearchSource, principal.tenantId, search, { offset, limit: query.limit });
  return { data: records.map((record) => toSupplierView(supplierFieldsOf(record))), total, page: query.page, limit: query.limit };
}

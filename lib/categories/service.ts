import { randomUUID } from 'node:crypto';
import { auditRecord, changesOf } from '../audit/record';
import type { Caller } from '../auth/principal';
import { matchedVersions, requireMatch } from '../domain/etag';
import type { IdempotentWrite } from '../idempotency/model';
import { Conflict, NotFound } from '../errors';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';
import type { Category } from './model';
import { findCategory, findCategoryIdByName, insertCategory, listCategoryPage, modifyCategory, removeCategory } from './repository';
import type { CategoryBody, CategoryView } from './schemas';

/**
 * Product categories: create, list by name, rename (If-Match), delete when no product is in
 * them. A category's name is unique in the tenant whatever its case and accents (409).
 */

const audited = (
  principal: Pick<Caller, 'tenantId'>,
  action: 'category.created' | 'category.updated' | 'category.deleted',
  category: Category,
  nowMs: number,
  before?: Category,
) =>
  auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action,
      resource: { type: 'category', id: category.id },
      ...(before ? { changes: changesOf(before, category, ['name']) } : {}),
    },
    nowMs,
  );

export async function createCategory(
  principal: Pick<Caller, 'tenantId'>,
  body: CategoryBody,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<CategoryView> {
  const now = new Date(nowMs).toISOString();
  const category: Category = { id: randomUUID(), name: body.name, productCount: 0, createdAt: now, updatedAt: now, version: 1 };
  await insertCategory(
    principal.tenantId,
    category,
    audited(principal, 'category.created', category, nowMs),
    idempotency && { write: idempotency, view: category },
  );
  return category;
}

/** One category of the caller's tenant; 404 for an unknown id or another tenant's. */
export async function getCategory(principal: Caller, categoryId: string): Promise<CategoryView> {
  const category = await findCategory(principal.tenantId, categoryId);
  if (!category) throw new NotFound('No such category');
  return category;
}

/** A page of the tenant's categories by name (case- and accent-insensitive). */
export function listCategories(principal: Caller, page: PageRequest): Promise<Page<CategoryView>> {
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'categories' } }, page, (at) => listCategoryPage(principal.tenantId, at));
}

/** Rename a category; with an `If-Match`, only the version it names (412 otherwise). 409 for a name another category has. */
export async function renameCategory(
  principal: Caller,
  categoryId: string,
  body: CategoryBody,
  ifMatch: string | undefined,
  nowMs: number,
): Promise<CategoryView> {
  const expected = matchedVersions(ifMatch, 'category');
  return modifyCategory(
    principal.tenantId,
    categoryId,
    (current) => {
      requireMatch(expected, current.version, 'category');
      return { ...current, name: body.name, updatedAt: new Date(nowMs).toISOString(), version: current.version + 1 };
    },
    (before, after) => audited(principal, 'category.updated', after, nowMs, before),
  );
}

/** Delete a category no product is in (204); 409 while products are in it, 404 for none. */
export async function deleteCategory(principal: Caller, categoryId: string, nowMs: number): Promise<void> {
  await removeCategory(principal.tenantId, categoryId, (category) => audited(principal, 'category.deleted', category, nowMs));
}

/**
 * The id of the tenant's category of that name (case- and accent-insensitive), made when there
 * is none: a products import names categories by name. Of two rows making one at once, one
 * makes it and the other finds it.
 */
export async function categoryNamed(principal: Pick<Caller, 'tenantId'>, name: string, nowMs: number): Promise<string> {
  const found = await findCategoryIdByName(principal.tenantId, name);
  if (found) return found;
  try {
    return (await createCategory(principal, { name }, nowMs)).id;
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    const made = await findCategoryIdByName(principal.tenantId, name);
    if (!made) throw error;
    return made;
  }
}

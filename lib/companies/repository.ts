import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { Company, CompanyStatus } from './model';
import { COMPANY_ITEMS } from '../db/item-types';

import { Conflict } from '../errors';
import { db, tableName, type TransactItem } from '../db/client';
import { auditItems } from '../audit/repository';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { failedConditions } from '../db/conditions';
import { reviseItem, type Revision } from '../audit/revisions-repository';
import { gsi1, keys } from '../db/keys';
import { queryPage } from '../db/query';
import { getMany } from '../db/batch';

export type { Company };

/**
 * `settings` is stored as JSON text: a free-form object may hold what DynamoDB maps cannot
 * (nesting deeper than 32, numbers beyond its range, empty keys), and it is never queried.
 */
function toItem(company: Company): Record<string, unknown> {
  const { settings, ...rest } = company;
  const item: Record<string, unknown> = {
    ...keys.company(company.tenantId, company.id),
    ...gsi1.companyById(company.id),
    type: COMPANY_ITEMS.company,
    settingsJson: JSON.stringify(settings),
  };
  for (const [key, value] of Object.entries(rest)) if (value !== null) item[key] = value;
  return item;
}

export function toCompany(item: Record<string, unknown>): Company {
  return {
    id: item.id as string,
    tenantId: item.tenantId as string,
    name: item.name as string,
    document: item.document as string,
    status: item.status as CompanyStatus,
    email: (item.email as string | undefined) ?? null,
    address: (item.address as Company['address'] | undefined) ?? null,
    settings: typeof item.settingsJson === 'string' ? (JSON.parse(item.settingsJson) as Company['settings']) : {},
    taxRegime: item.taxRegime as Company['taxRegime'],
    costMethod: item.costMethod as Company['costMethod'],
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/**
 * The company, its document sentinel, its listing entry, the key's completion and the audit
 * entry of its creation in one transaction: 409 when any tenant holds the document. The audit
 * items come last, so the indexes below stay those of the company's own items.
 */
export async function insertCompany(company: Company, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: toItem(company), ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.companyDocument(company.document), type: COMPANY_ITEMS.document, tenantId: company.tenantId, companyId: company.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.companyListing(company.tenantId, company.createdAt, company.id), type: COMPANY_ITEMS.listing, companyId: company.id },
            },
          },
          ...completionItems(key),
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    keyTakenOver(error, 3);
    if (failedConditions(error)?.includes(1)) throw new Conflict('A company with this document already exists');
    throw error;
  }
}

export async function getCompany(tenantId: string, companyId: string): Promise<Company | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.company(tenantId, companyId), ConsistentRead: true }));
  return Item ? toCompany(Item) : undefined;
}

/** The tenant owning a company id, through GSI1 (platform administrators). */
export async function findCompanyTenant(companyId: string): Promise<string | undefined> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1.companyById(companyId).gsi1pk },
      ProjectionExpression: 'tenantId',
    }),
  );
  const tenantId: unknown = Items?.[0]?.tenantId;
  return typeof tenantId === 'string' ? tenantId : undefined;
}

/**
 * A page of the tenant's companies, oldest first: one Query of the listing entries (in
 * creation order), then one consistent BatchGetItem of the page's companies, so a page always
 * shows each company as it is now.
 */
export async function listCompanyPage(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ items: Company[]; lastSk?: string }> {
  const { items, more } = await queryPage(keys.companyListingOf(tenantId).pk, page);
  const companies = (await getMany(items.map((item) => keys.company(tenantId, String(item.companyId))))).flatMap((item) => (item ? [toCompany(item)] : []));
  return { items: companies, ...(more ? { lastSk: items.at(-1)?.sk as string } : {}) };
}

/** The tenant's oldest ACTIVE company (the listing is in creation order), or none: a few pages at most, a tenant has few companies. */
export async function oldestActiveCompany(tenantId: string): Promise<Company | undefined> {
  let afterSk: string | undefined;
  do {
    const page = await listCompanyPage(tenantId, { limit: 25, ...(afterSk === undefined ? {} : { afterSk }) });
    const active = page.items.find((company) => company.status === 'ACTIVE');
    if (active) return active;
    afterSk = page.lastSk;
  } while (afterSk !== undefined);
  return undefined;
}

/** Every company of the tenant, oldest first. */
export async function listAllCompanies(tenantId: string): Promise<Company[]> {
  const companies: Company[] = [];
  let afterSk: string | undefined;
  do {
    const page = await listCompanyPage(tenantId, { limit: 100, ...(afterSk === undefined ? {} : { afterSk }) });
    companies.push(...page.items);
    afterSk = page.lastSk;
  } while (afterSk !== undefined);
  return companies;
}

export type CompanyChanges = Partial<Pick<Company, 'name' | 'email' | 'address' | 'settings' | 'taxRegime' | 'costMethod'>>;

/** The audit record of a change, from the company as it was and as it becomes (lib/companies/service). */
export type CompanyAudit = (before: Company, after: Company) => AuditRecord;

/** A change to a company, with its entry, conditioned on the revision read (lib/audit/revisions-repository). */
const changeCompany = (
  tenantId: string,
  companyId: string,
  next: (company: Company) => Revision<Company>,
  audit: CompanyAudit,
  alongside?: (company: Company) => Promise<TransactItem[]>,
): Promise<Company> => reviseItem(keys.company(tenantId, companyId), toCompany, next, audit, 'No such company', alongside);

/** Apply profile changes (null clears email or address); 404 when the company is not there. */
export function updateCompanyProfile(tenantId: string, companyId: string, changes: CompanyChanges, now: string, audit: CompanyAudit): Promise<Company> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as CompanyChanges;
  const { settings, ...rest } = given;
  return changeCompany(
    tenantId,
    companyId,
    (company) => ({
      after: { ...company, ...given, updatedAt: now },
      fields: { ...rest, ...(settings !== undefined ? { settingsJson: JSON.stringify(settings) } : {}), updatedAt: now },
    }),
    audit,
  );
}

/**
 * Move the status only if it is still `from`: a change that finds another status (a
 * concurrent one won) is a 409, however many other changes came in between.
 */
export function transitionCompanyStatus(
  tenantId: string,
  companyId: string,
  from: CompanyStatus,
  to: CompanyStatus,
  now: string,
  audit: CompanyAudit,
  alongside?: (company: Company) => Promise<TransactItem[]>,
): Promise<Company> {
  return changeCompany(
    tenantId,
    companyId,
    (company) => {
      if (company.status !== from) throw new Conflict(`The company is no longer ${from}`);
      return { after: { ...company, status: to, updatedAt: now }, fields: { status: to, updatedAt: now } };
    },
    audit,
    alongside,
  );
}

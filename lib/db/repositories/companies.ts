import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Company, CompanyStatus } from '../../companies/model';
import { COMPANY_ITEMS } from '../item-types';

import { Conflict, NotFound } from '../../errors';
import { db, tableName } from '../client';
import { completionItems, keyTakenOver, type KeyCompletion } from './idempotency';
import { failedConditions, isConditionFailure } from '../conditions';
import { setOrRemove } from '../items';
import { gsi1, keys } from '../keys';
import { queryPage } from '../query';
import { getMany } from '../batch';

export type { Company };

/**
 * `settings` is stored as JSON text: a free-form object may hold what DynamoDB maps cannot
 * (nesting deeper than 32, numbers beyond its range, empty keys), and it is never queried.
 */
function toItem(company: Company): Record<string, unknown> {
  const { settings, ...rest } = company;
  const item: Record<string, unknown> = { ...keys.company(company.tenantId, company.id), ...gsi1.companyById(company.id), type: COMPANY_ITEMS.company, settingsJson: JSON.stringify(settings) };
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

/** The company and its document sentinel in one transaction: 409 when any tenant holds the document. */
export async function insertCompany(company: Company, key?: KeyCompletion): Promise<void> {
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
          { Put: { TableName: tableName(), Item: { ...keys.companyListing(company.tenantId, company.createdAt, company.id), type: COMPANY_ITEMS.listing, companyId: company.id } } },
          ...completionItems(key),
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

export type CompanyChanges = Partial<Pick<Company, 'name' | 'email' | 'address' | 'settings' | 'taxRegime' | 'costMethod'>>;

/** Apply profile changes (null clears email or address); 404 when the company is not there. */
export async function updateCompanyProfile(tenantId: string, companyId: string, changes: CompanyChanges, now: string): Promise<Company> {
  const { settings, ...rest } = changes;
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(tenantId, companyId),
        ...setOrRemove({ ...rest, ...(settings !== undefined ? { settingsJson: JSON.stringify(settings) } : {}), updatedAt: now }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toCompany(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFound('No such company');
    throw error;
  }
}

/** Move the status only if it is still `from` (a concurrent change makes this a 409). */
export async function transitionCompanyStatus(tenantId: string, companyId: string, from: CompanyStatus, to: CompanyStatus, now: string): Promise<Company> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(tenantId, companyId),
        UpdateExpression: 'SET #status = :to, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND #status = :from',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': to, ':from': from, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toCompany(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new Conflict(`The company is no longer ${from}`);
    throw error;
  }
}

import { describe, expect, it } from 'vitest';
import { accountKeys } from '../src/api/account';
import { apiKeyKeys } from '../src/api/api-keys';
import { auditKeys } from '../src/api/audit';
import { authKeys } from '../src/api/auth';
import { companyKeys } from '../src/api/companies';
import { dashboardKeys } from '../src/api/dashboard';
import { inventoryKeys } from '../src/api/inventory';
import { invitationKeys } from '../src/api/invitations';
import { settingsKeys } from '../src/api/settings';
import { supplierProductKeys } from '../src/api/supplier-products';
import { supplierKeys } from '../src/api/suppliers';
import { tenantKeys } from '../src/api/tenants';
import { transferKeys } from '../src/api/transfers';
import { userKeys } from '../src/api/users';
import { webhookKeys } from '../src/api/webhooks';

/** Whether an invalidation of `prefix` reaches the query of `key` (TanStack Query matches a key by its prefix). */
const reaches = (prefix: readonly unknown[], key: readonly unknown[]) => JSON.stringify(key.slice(0, prefix.length)) === JSON.stringify(prefix);

describe('the query keys of api/', () => {
  it('keep their values, so a cached page and its invalidation still meet', () => {
    expect(companyKeys.list({ page: 2, cursor: 'c' })).toEqual(['companies', 'list', { page: 2, cursor: 'c' }]);
    expect(companyKeys.picker()).toEqual(['companies', 'picker']);
    expect(supplierKeys.list({ search: 'x', page: 1 })).toEqual(['suppliers', 'list', { search: 'x', page: 1 }]);
    expect(userKeys.list(undefined)).toEqual(['admin', 'users', '']);
    expect(invitationKeys.list('c')).toEqual(['admin', 'invitations', 'c']);
    expect(apiKeyKeys.list(undefined)).toEqual(['admin', 'api-keys', '']);
    expect(webhookKeys.list('c')).toEqual(['admin', 'webhook-endpoints', 'list', 'c']);
    expect(webhookKeys.deliveryLog('e', { status: '', eventType: '' })).toEqual([
      'admin',
      'webhook-endpoints',
      'e',
      'deliveries',
      { status: '', eventType: '' },
    ]);
    expect(tenantKeys.list(undefined)).toEqual(['admin', 'tenants', '']);
    expect(settingsKeys.tenant('t')).toEqual(['admin', 'tenant', 't']);
    expect(accountKeys.sessions).toEqual(['account', 'sessions']);
    expect(authKeys.me).toEqual(['me']);
    expect(inventoryKeys.products('s', undefined)).toEqual(['inventory', 'products', 'list', 's', null]);
    expect(inventoryKeys.balance('p', 'w')).toEqual(['inventory', 'product', 'p', 'balance', 'w']);
    expect(dashboardKeys.coverage(30, undefined)).toEqual(['inventory', 'dashboard', 'coverage', 30, null]);
  });

  it('nest each list under what refreshes it', () => {
    expect(reaches(companyKeys.all, companyKeys.picker())).toBe(true);
    expect(reaches(userKeys.admin, auditKeys.list({ action: '', resourceType: '', actorId: '', from: '', to: '' }, undefined))).toBe(true);
    expect(reaches(webhookKeys.deliveries('e'), webhookKeys.deliveryLog('e', { status: '', eventType: '' }))).toBe(true);
    expect(reaches(inventoryKeys.product('p'), inventoryKeys.history('p', { warehouseId: '', type: '', from: '', to: '' }, undefined))).toBe(true);
    expect(reaches(inventoryKeys.product('p'), transferKeys.list('p', undefined))).toBe(true);
    expect(reaches(inventoryKeys.dashboard, dashboardKeys.byWarehouse())).toBe(true);
    expect(reaches(inventoryKeys.all, dashboardKeys.byWarehouse())).toBe(true);
    // A supplier's products under the suppliers' (its rename), a product's suppliers under the product's (its movements).
    expect(reaches(supplierKeys.all, supplierProductKeys.supplierPage('s', undefined))).toBe(true);
    expect(reaches(supplierProductKeys.ofSuppliers, supplierProductKeys.link('s', 'p'))).toBe(true);
    expect(reaches(inventoryKeys.product('p'), supplierProductKeys.productPage('p', 'c'))).toBe(true);
    expect(reaches(supplierKeys.all, supplierKeys.one('s'))).toBe(true);
  });
});

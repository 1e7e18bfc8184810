/**
 * The route manifest: every endpoint of the API, once. The CDK stack (one function per
 * route, the authorizer on the protected ones, least-privilege table grants), the local
 * API Gateway emulator, the OpenAPI document and the infra tests all read this list.
 *
 * Assembled here from one file per area (`./<area>.ts`, the folder of its handlers under
 * functions/), the entry's shape (./types) and the shared limits (./limits). Adding an
 * endpoint = one entry in its area's file, its name in `routes` below, and one file under
 * `functions/`.
 */
import type { RouteKeyAccess } from '../domain/key-scopes';
import { API_KEY_USE_PK_PREFIX } from '../db/keys';
import type { TableAccess, Route } from './types';
import { createTenant, listTenants, getTenant, updateTenant, closeTenant, reopenTenant, exportTenant, getTenantExport } from './tenants';
import {
  register,
  login,
  me,
  myData,
  refresh,
  logout,
  listSessions,
  revokeSession,
  revokeOtherSessions,
  changePassword,
  startTotpEnrolment,
  confirmTotpEnrolment,
  disableTotp,
  verifySecondFactor,
  forgotPassword,
  resetPassword,
  createInvitation,
  listInvitations,
  withdrawInvitation,
} from './auth';
import { listUsers, updateUser, deleteUser, resetUserMfa, anonymizeUser } from './users';
import { createCompany, listCompanies, updateCompany, updateCompanyStatus } from './companies';
import { createSupplier, listSuppliers, getSupplier, updateSupplier, deleteSupplier } from './suppliers';
import {
  createSupplierProduct,
  listSupplierProducts,
  getSupplierProduct,
  updateSupplierProduct,
  deleteSupplierProduct,
  listProductSuppliers,
} from './supplier-products';
import {
  createWarehouse,
  listWarehouses,
  getWarehouse,
  createProduct,
  listProducts,
  getProduct,
  updateProduct,
  deleteProduct,
  createMovement,
  listMovements,
  stockCoverage,
  stockByWarehouse,
} from './inventory';
import { createCategory, listCategories, getCategory, updateCategory, deleteCategory } from './categories';
import { createTransfer, listTransfers } from './transfers';
import { setReorderSettings, listSuggestions } from './purchasing';
import { createPurchaseOrder, listPurchaseOrders, getPurchaseOrder, updatePurchaseOrder, sendPurchaseOrder, cancelPurchaseOrder } from './purchase-orders';
import { createCount, listCounts, getCount, listUncounted, setCountLine, scanCount, closeCount, cancelCount } from './counts';
import { listAuditEvents } from './audit';
import { listEvents } from './events';
import { createApiKey, listApiKeys, rollApiKey, deleteApiKey } from './api-keys';
import {
  createWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  retryWebhookDelivery,
  listWebhookDeliveries,
} from './webhooks';
import { createImport, getImport } from './imports';
import { createExport, getExport } from './exports';

export * from './types';
export * from './limits';
export * from './tenants';
export * from './auth';
export * from './users';
export * from './companies';
export * from './suppliers';
export * from './supplier-products';
export * from './inventory';
export * from './categories';
export * from './transfers';
export * from './counts';
export * from './purchase-orders';
export * from './purchasing';
export * from './audit';
export * from './events';
export * from './api-keys';
export * from './webhooks';
export * from './imports';
export * from './exports';
export * from './background';

/**
 * Every route by its id, in manifest order (the tooling, the stack and the tests read it).
 * A handler imports its own route alone (`import * as routes from '…/lib/routes'`, then
 * `routes.<id>`), so that its bundle holds its entry of the manifest, not all of them.
 */
export const routes = {
  createTenant,
  listTenants,
  getTenant,
  updateTenant,
  closeTenant,
  reopenTenant,
  exportTenant,
  getTenantExport,
  register,
  login,
  me,
  myData,
  refresh,
  logout,
  listSessions,
  revokeSession,
  revokeOtherSessions,
  listUsers,
  updateUser,
  deleteUser,
  resetUserMfa,
  anonymizeUser,
  changePassword,
  startTotpEnrolment,
  confirmTotpEnrolment,
  disableTotp,
  verifySecondFactor,
  forgotPassword,
  resetPassword,
  createInvitation,
  listInvitations,
  withdrawInvitation,
  createCompany,
  listCompanies,
  updateCompany,
  updateCompanyStatus,
  createSupplier,
  listSuppliers,
  getSupplier,
  updateSupplier,
  deleteSupplier,
  createSupplierProduct,
  listSupplierProducts,
  getSupplierProduct,
  updateSupplierProduct,
  deleteSupplierProduct,
  listProductSuppliers,
  createWarehouse,
  listWarehouses,
  getWarehouse,
  createProduct,
  listProducts,
  getProduct,
  updateProduct,
  deleteProduct,
  createCategory,
  listCategories,
  getCategory,
  updateCategory,
  deleteCategory,
  createMovement,
  listMovements,
  createTransfer,
  listTransfers,
  createCount,
  listCounts,
  getCount,
  listUncounted,
  setCountLine,
  scanCount,
  closeCount,
  cancelCount,
  createPurchaseOrder,
  listPurchaseOrders,
  getPurchaseOrder,
  updatePurchaseOrder,
  sendPurchaseOrder,
  cancelPurchaseOrder,
  setReorderSettings,
  listSuggestions,
  stockCoverage,
  stockByWarehouse,
  listAuditEvents,
  listEvents,
  createApiKey,
  listApiKeys,
  rollApiKey,
  deleteApiKey,
  createWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  retryWebhookDelivery,
  listWebhookDeliveries,
  createImport,
  getImport,
  createExport,
  getExport,
} as const satisfies Record<string, Route>;

export type RouteId = keyof typeof routes;

/**
 * The REQUEST authorizer in front of every protected route, for the session cookie and API
 * keys alike. It has no identity source: API Gateway can require one header, not one of two,
 * so a request with neither invokes it and gets 401 at once, before any read.
 */
export const authorizer = {
  handler: 'functions/auth/authorizer.ts',
  table: { actions: ['BatchGetItem'] } satisfies TableAccess,
  /**
   * Besides its reads, the attributes it writes: a session's `lastActiveAt` (at most once a
   * minute per session) and an API key's `lastUsedAt` (at most once per 5 minutes per key;
   * `lastUsedIp` only to remove an address a key held before it was kept apart).
   */
  updatesAttributes: ['lastActiveAt', 'lastUsedAt', 'lastUsedIp'],
  /**
   * And the address of a key's last use, in its own item (lib/db/keys `apiKeyUse`): these
   * attributes, `ttl` among them, in those partitions only, so that no other item's expiry can
   * be set by it.
   */
  keyUses: { partitions: `${API_KEY_USE_PK_PREFIX}*`, attributes: ['type', 'tenantId', 'lastUsedAt', 'lastUsedIp', 'ttl'] },
} as const;

/**
 * What an API key needs to call the route at `method` and `resource` (API Gateway's resource
 * path): its manifest entry's `apiKey`, or `false` when the route takes none or is unknown.
 */
export function routeKeyAccess(method: string, resource: string): RouteKeyAccess {
  for (const route of Object.values(routes) as Route[]) {
    if (route.method === method && route.path === resource) return route.auth === 'protected' ? (route.apiKey ?? false) : false;
  }
  return false;
}

/**
 * A route's area: the folder of its handler under functions/ (`functions/auth/login.ts` is in
 * `auth`). Its function, role and method land in that area's stack (infra/constructs/route-area.ts).
 */
export function routeArea(route: Pick<Route, 'handler'>): string {
  const match = /^functions\/([a-z0-9-]+)\//.exec(route.handler);
  if (!match) throw new Error(`A route handler lives in a folder of functions/: ${route.handler}`);
  return match[1] as string;
}

/** Every route with its id, in manifest order. */
export function routeList(): (Route & { id: RouteId })[] {
  return (Object.entries(routes) as [RouteId, Route][]).map(([id, route]) => ({ id, ...route }));
}

import * as z from 'zod';
import {
  forgotPasswordBody,
  invitationBody,
  loginBody,
  messageView,
  registerBody,
  resetPasswordBody,
  sessionView,
  userView,
} from '../auth/schemas';
import { addressSchema, companyView, createCompanyBody, settingsSchema, updateCompanyBody, updateCompanyStatusBody } from '../companies/schemas';
import { idPath } from '../domain/fields';
import { coverageQuery, movementBody, productBody, warehouseBody } from '../inventory/schemas';
import type { RouteId } from '../routes';
import { createSupplierBody, listSuppliersQuery, supplierPageView, supplierView, updateSupplierBody } from '../suppliers/schemas';
import { createTenantBody, tenantCreatedView, tenantView, updateTenantBody } from '../tenants/schemas';
import {
  companyListView,
  coverageItemView,
  coverageListView,
  fieldErrorView,
  invitationView,
  movementView,
  problemView,
  productListView,
  productView,
  sessionListView,
  tenantListView,
  userEnvelopeView,
  warehouseListView,
  warehouseSummaryListView,
  warehouseSummaryView,
  warehouseView,
} from './response-schemas';

/** Any zod schema, classic or mini: the document only converts them. */
export type Schema = z.core.$ZodType;

/** Error statuses a route can answer (contract section 2). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

/** What a success response does to the session cookies (documented as Set-Cookie). */
export type CookieEffect = 'issued' | 'cleared' | 'cleared-if-current';

export interface OperationSpec {
  /** The schemas the handler passes to `httpHandler`, the very same objects. */
  request?: {
    body?: Schema;
    query?: Schema;
    path?: Schema;
    /**
     * PATCH bodies refine "at least one field", which JSON Schema cannot learn from the
     * refinement; the document says it as `minProperties: 1`.
     */
    atLeastOneField?: boolean;
  };
  success: { status: 200 | 201; description: string; body: Schema; cookies?: CookieEffect };
  /**
   * The statuses the route's own logic answers, each with when. Those that come from the
   * handler chain and the gateway (validation, authentication, CSRF, body limits, rate
   * limits, store failures) are added by `chainErrorStatuses`.
   */
  errors: Partial<Record<ErrorStatus, string>>;
  /** Longer prose than the manifest's summary, where the rules need saying. */
  description?: string;
  /** A public route that reads the refresh cookie instead of the access cookie. */
  refreshCookie?: boolean;
}

/**
 * Component names of the request bodies: converted with `io: 'input'` (what a client sends,
 * before trimming, lower-casing and other transforms).
 */
export const requestComponents = z
  .registry<{ id: string; description?: string }>()
  .add(createTenantBody, { id: 'CreateTenantRequest' })
  .add(updateTenantBody, { id: 'UpdateTenantRequest', description: 'Any of the profile fields; `null` clears one.' })
  .add(registerBody, { id: 'RegisterRequest' })
  .add(loginBody, { id: 'LoginRequest' })
  .add(forgotPasswordBody, { id: 'ForgotPasswordRequest' })
  .add(resetPasswordBody, { id: 'ResetPasswordRequest' })
  .add(invitationBody, { id: 'InvitationRequest' })
  .add(createCompanyBody, { id: 'CreateCompanyRequest' })
  .add(updateCompanyBody, { id: 'UpdateCompanyRequest', description: 'Any of the fields; `null` clears email or address. The address and settings are replaced whole.' })
  .add(updateCompanyStatusBody, { id: 'UpdateCompanyStatusRequest' })
  .add(addressSchema, {
    id: 'AddressInput',
    description: 'A Brazilian address: every key required; `state` a UF (upper-cased); `zipCode` a CEP with or without the dash.',
  })
  .add(settingsSchema._zod.def.valueType, { id: 'JsonValue', description: 'Any JSON value.' })
  .add(createSupplierBody, { id: 'CreateSupplierRequest' })
  .add(updateSupplierBody, { id: 'UpdateSupplierRequest', description: 'Any of the create fields; `null` clears email or phone.' })
  .add(warehouseBody, { id: 'CreateWarehouseRequest' })
  .add(productBody, { id: 'CreateProductRequest' })
  .add(movementBody, {
    id: 'CreateMovementRequest',
    description:
      '`quantity` > 0 (for ADJUSTMENT: the counted on-hand quantity, 0 allowed); `unitCost` required for IN, refused for OUT and SALE, optional for ADJUSTMENT; `occurredAt` defaults to now and may not be in the future.',
  });

/** Component names of the response bodies: converted with `io: 'output'`. */
export const responseComponents = z
  .registry<{ id: string; description?: string }>()
  .add(userView, { id: 'User' })
  .add(userEnvelopeView, { id: 'UserEnvelope' })
  .add(messageView, { id: 'Message' })
  .add(sessionView, { id: 'Session' })
  .add(sessionListView, { id: 'SessionList', description: "The caller's live sessions, newest first." })
  .add(invitationView, { id: 'Invitation' })
  .add(tenantCreatedView, { id: 'TenantCreated' })
  .add(tenantView, { id: 'Tenant', description: 'The document is formatted (`11.222.333/0001-81`); the phone is E.164.' })
  .add(tenantListView, { id: 'TenantList' })
  .add(companyView, { id: 'Company', description: 'The document is shown as stored, unformatted.' })
  .add(companyListView, { id: 'CompanyList', description: 'Oldest first.' })
  .add(supplierView, { id: 'Supplier', description: 'The document is formatted; the phone is E.164.' })
  .add(supplierPageView, { id: 'SupplierPage', description: '`total` counts every match; a page past the end has `data: []`.' })
  .add(warehouseView, { id: 'Warehouse' })
  .add(warehouseListView, { id: 'WarehouseList', description: 'By name.' })
  .add(productView, { id: 'Product' })
  .add(productListView, { id: 'ProductList', description: 'By SKU.' })
  .add(movementView, { id: 'Movement' })
  .add(coverageItemView, { id: 'CoverageItem', description: 'Numbers rounded to 2 decimals; `estimatedCoverageDays` is null without sales.' })
  .add(coverageListView, { id: 'CoverageList', description: 'Shortest coverage first, products without sales last, then by SKU.' })
  .add(warehouseSummaryView, { id: 'WarehouseSummary', description: '`totalValue` in money, rounded to cents.' })
  .add(warehouseSummaryListView, { id: 'WarehouseSummaryList', description: 'By warehouse name; warehouses without stock have zeros.' })
  .add(fieldErrorView, { id: 'FieldError' })
  .add(problemView, { id: 'Problem', description: 'An RFC 9457 problem document (`application/problem+json`).' });

const message = (description: string) => ({ status: 200 as const, description, body: messageView });

/**
 * Every route of the manifest: what it validates, what it answers on success, and the
 * errors its own logic answers. `satisfies Record<RouteId, ...>` keeps it complete: a
 * route added to the manifest does not compile until it is described here.
 */
export const operations = {
  createTenant: {
    request: { body: createTenantBody },
    success: { status: 201, description: 'The tenant was created.', body: tenantCreatedView },
    errors: { 409: 'A tenant with this name already exists, or the name is reserved (`platform`, `admin`, `www`, ...).' },
    description: 'Public sign-up. `name` is a slug, unique across the service, and not one of the reserved names; `adminEmail`, when given, is the only e-mail that may register the base account.',
  },
  listTenants: {
    success: { status: 200, description: 'Every tenant, by name.', body: tenantListView },
    errors: { 403: 'The caller is not a platform administrator.' },
  },
  updateTenant: {
    request: { path: idPath, body: updateTenantBody, atLeastOneField: true },
    success: { status: 200, description: 'The tenant as updated.', body: tenantView },
    errors: { 403: 'A member (not administrator) of the tenant.', 404: 'No such tenant, or another tenant (to a tenant administrator).' },
    description: 'By a platform administrator, or an administrator of that tenant.',
  },
  register: {
    request: { body: registerBody },
    success: { status: 200, description: 'The user was created and signed in.', body: userEnvelopeView, cookies: 'issued' },
    errors: {
      403: "Registration is not permitted: the tenant's administrative e-mail only, or a pending invitation of this e-mail into this tenant and its token (`invitationToken`) are needed; a missing, wrong, used or expired token is this 403.",
      404: 'No such tenant, or the tenant is not active.',
      409: 'An account with this e-mail already exists.',
    },
    description:
      "A tenant's first account is its administrator and needs no token; every later account needs `invitationToken`, the single-use token of the invitation e-mail's link (the invitation must be pending, for this e-mail, in this tenant).",
  },
  login: {
    request: { body: loginBody },
    success: { status: 200, description: 'Signed in.', body: userEnvelopeView, cookies: 'issued' },
    errors: { 401: 'Bad credentials (the same answer whether the e-mail exists or not).' },
    description: '`rememberMe` makes the refresh cookie persistent for 30 days (else a browser-session cookie; the session lasts 12 hours).',
  },
  me: {
    success: { status: 200, description: 'The current user.', body: userView },
    errors: {},
  },
  refresh: {
    refreshCookie: true,
    success: { status: 200, description: 'A new access token and a rotated refresh token.', body: userEnvelopeView, cookies: 'issued' },
    errors: { 401: 'The refresh token is absent, invalid, expired, revoked or was already used.' },
    description:
      'Call it when a request answers 401, then retry once. Parallel refreshes with one token have one winner; replaying a rotated token after 10 seconds revokes the session.',
  },
  logout: {
    success: { status: 200, description: 'The session was revoked and both cookies cleared.', body: messageView, cookies: 'cleared' },
    errors: {},
  },
  listSessions: {
    success: { status: 200, description: "The caller's live sessions in the caller's tenant.", body: sessionListView },
    errors: {},
  },
  revokeSession: {
    request: { path: idPath },
    success: { ...message('The session was revoked; revoking the session in use also clears its cookies.'), cookies: 'cleared-if-current' },
    errors: { 404: "Not one of the caller's live sessions." },
  },
  forgotPassword: {
    request: { body: forgotPasswordBody },
    success: message('The same answer whether the address exists or not; a reset link is mailed only when it does.'),
    errors: {},
  },
  resetPassword: {
    request: { body: resetPasswordBody },
    success: message('The password was changed and every session of the user signed out.'),
    errors: {},
    description: 'A 400 names `token` when it is unknown, expired (30 minutes) or already used.',
  },
  createInvitation: {
    request: { body: invitationBody },
    success: {
      status: 201,
      description:
        'The same answer whether or not the address has an account. The invitation (7 days): its e-mail carries the tenant id and a single-use token. A pending invitation of this address into this tenant mailed less than 24 hours ago is answered as it is, and no e-mail is sent.',
      body: invitationView,
    },
    errors: { 403: 'The caller is not a tenant administrator.', 429: 'More than 3 invitations of one address in 24 hours (a fixed window, across every tenant).' },
  },
  createCompany: {
    request: { body: createCompanyBody },
    success: { status: 201, description: 'The company: ACTIVE, SIMPLES_NACIONAL, WEIGHTED_AVERAGE, settings `{}`.', body: companyView },
    errors: { 409: 'A company with this document already exists, in any tenant.' },
  },
  listCompanies: {
    success: { status: 200, description: "The caller's tenant's companies, oldest first.", body: companyListView },
    errors: {},
  },
  updateCompany: {
    request: { path: idPath, body: updateCompanyBody, atLeastOneField: true },
    success: { status: 200, description: 'The company as updated.', body: companyView },
    errors: { 404: "No such company in the caller's tenant." },
    description: 'The document never changes.',
  },
  updateCompanyStatus: {
    request: { path: idPath, body: updateCompanyStatusBody },
    success: { status: 200, description: 'The company in its new status.', body: companyView },
    errors: {
      403: 'The caller is not a tenant administrator.',
      404: "No such company in the caller's tenant.",
      409: 'The transition is not allowed (BLOCKED to ACTIVE needs a platform administrator; a status to itself is refused).',
    },
    description: 'ACTIVE to DISABLED, SUSPENDED or BLOCKED; DISABLED or SUSPENDED to ACTIVE; BLOCKED to ACTIVE by a platform administrator.',
  },
  createSupplier: {
    request: { body: createSupplierBody },
    success: { status: 201, description: 'The supplier.', body: supplierView },
    errors: { 409: 'A supplier of the tenant already has this document.' },
  },
  listSuppliers: {
    request: { query: listSuppliersQuery },
    success: { status: 200, description: 'A page of suppliers by name.', body: supplierPageView },
    errors: {},
    description: 'Search is case- and accent-insensitive over trade name, legal name and e-mail; documents and phones match with or without punctuation. Any other query parameter is a 400.',
  },
  updateSupplier: {
    request: { path: idPath, body: updateSupplierBody, atLeastOneField: true },
    success: { status: 200, description: 'The supplier as updated.', body: supplierView },
    errors: { 404: "No such supplier in the caller's tenant.", 409: 'Another supplier of the tenant already has this document.' },
  },
  createWarehouse: {
    request: { body: warehouseBody },
    success: { status: 201, description: 'The warehouse.', body: warehouseView },
    errors: {},
  },
  listWarehouses: {
    success: { status: 200, description: "The tenant's warehouses, by name.", body: warehouseListView },
    errors: {},
  },
  createProduct: {
    request: { body: productBody },
    success: { status: 201, description: 'The product.', body: productView },
    errors: { 409: 'The SKU is already used in the tenant.' },
  },
  listProducts: {
    success: { status: 200, description: "The tenant's products, by SKU.", body: productListView },
    errors: {},
  },
  createMovement: {
    request: { body: movementBody },
    success: { status: 201, description: 'The movement, with the balance of the product in the warehouse after it.', body: movementView },
    errors: { 404: 'No such product or warehouse in the tenant.', 409: 'OUT or SALE would take the quantity below zero.' },
    description: 'Weighted-average costing. Recorded in one transaction with the balance, the warehouse totals and, for a SALE, the day\'s sales counter.',
  },
  stockCoverage: {
    request: { query: coverageQuery },
    success: { status: 200, description: 'One item per product.', body: coverageListView },
    errors: {},
    description:
      '`averageDailySales` = units sold in the `days` complete business days before today / `days`; `estimatedCoverageDays` = available / average. Any other query parameter is a 400.',
  },
  stockByWarehouse: {
    success: { status: 200, description: 'One summary per warehouse.', body: warehouseSummaryListView },
    errors: {},
  },
} as const satisfies Record<RouteId, OperationSpec>;

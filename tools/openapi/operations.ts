import * as z from 'zod';
import { forgotPasswordBody, invitationBody, loginBody, messageView, registerBody, resetPasswordBody, sessionView, userView } from '../../lib/auth/schemas';
import { addressSchema, companyView, createCompanyBody, settingsSchema, updateCompanyBody, updateCompanyStatusBody } from '../../lib/companies/schemas';
import type { CookieEffect, DescribedHandler, ErrorStatus, RouteDocs } from '../../lib/http/route-docs';
import { companyListView } from '../../lib/companies/schemas';
import {
  coverageItemView,
  coverageListView,
  movementView,
  productListView,
  productView,
  warehouseListView,
  warehouseSummaryListView,
  warehouseSummaryView,
  warehouseView,
} from '../../lib/inventory/schemas';
import { invitationView, sessionListView, userEnvelopeView } from '../../lib/auth/schemas';
import { tenantListView } from '../../lib/tenants/schemas';
import { movementBody, productBody, warehouseBody } from '../../lib/inventory/schemas';
import { movementBodyByType, movementBodyDocs } from './movement-docs';
import type { RouteId } from '../../lib/routes';
import { createSupplierBody, supplierPageView, supplierView, updateSupplierBody } from '../../lib/suppliers/schemas';
import { createTenantBody, tenantCreatedView, tenantView, updateTenantBody } from '../../lib/tenants/schemas';
import { routeHandlers } from './handlers';
import { fieldErrorView, problemView, validationProblemView } from './response-schemas';

export type { CookieEffect, ErrorStatus };

/** Any zod schema, classic or mini: the document only converts them. */
export type Schema = z.core.$ZodType;

/** One route as the document builder reads it: what the handler validates and its docs state. */
export interface OperationSpec {
  /** The schemas the handler passes to `httpHandler`, the very same objects. */
  request?: { body?: Schema; query?: Schema; path?: Schema; atLeastOneField?: boolean };
  success: { status: 200 | 201 | 204; description: string; body?: Schema; cookies?: CookieEffect };
  errors: Partial<Record<ErrorStatus, string>>;
  description?: string;
  refreshCookie?: boolean;
  /** The next page comes in a `Link` header. */
  linkPages?: boolean;
  /** The route's own headers on its success answer. */
  responseHeaders?: RouteDocs['responseHeaders'];
  /** The request headers the route reads beyond every route's. */
  requestHeaders?: RouteDocs['requestHeaders'];
  /** The handler's typical request body, shown as the request body's example. */
  example?: { body?: unknown };
}

/** A handler as an operation: the schemas it validates with, its answer and its own errors. */
export function operationOf({ input, docs }: DescribedHandler): OperationSpec {
  const request = { body: input.body as Schema | undefined, query: input.query as Schema | undefined, path: input.path as Schema | undefined };
  return {
    ...(request.body || request.query || request.path ? { request: { ...request, atLeastOneField: docs.atLeastOneField } } : {}),
    success: docs.success,
    errors: docs.errors ?? {},
    ...(docs.description ? { description: docs.description } : {}),
    ...(docs.refreshCookie ? { refreshCookie: true } : {}),
    ...(docs.linkPages ? { linkPages: true } : {}),
    ...(docs.responseHeaders ? { responseHeaders: docs.responseHeaders } : {}),
    ...(docs.requestHeaders ? { requestHeaders: docs.requestHeaders } : {}),
    ...(docs.example?.body === undefined ? {} : { example: { body: docs.example.body } }),
  };
}

/**
 * Every route of the manifest as its handler describes it (`handler.input` and `handler.docs`): nothing about a
 * route is written here. A route whose handler module does not exist fails to load.
 */
export const operations = Object.fromEntries(Object.entries(routeHandlers).map(([id, handler]) => [id, operationOf(handler)])) as Record<
  RouteId,
  OperationSpec
>;

/**
 * Component names of the request bodies: converted with `io: 'input'` (what a client sends,
 * before trimming, lower-casing and other transforms). A body schema not named here gets
 * `<RouteId>Request` (document.ts); naming it is only for a nicer name.
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
  .add(updateCompanyBody, {
    id: 'UpdateCompanyRequest',
    description: 'Any of the fields; `null` clears email or address. The address and settings are replaced whole.',
  })
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
  .add(movementBodyDocs, {
    id: 'CreateMovementRequest',
    description:
      'One shape per `type`: IN needs a `unitCost`, OUT and SALE refuse one (stock leaves at its average cost), ADJUSTMENT sets the counted quantity (0 allowed) with an optional `unitCost`. `occurredAt` defaults to now and may not be in the future.',
  })
  .add(movementBodyByType.IN, { id: 'InMovementRequest', description: 'Goods received: a quantity above 0 at a unit cost.' })
  .add(movementBodyByType.OUT, {
    id: 'OutMovementRequest',
    description: 'Goods leaving other than by a sale (loss, transfer out): a quantity above 0, at the average cost.',
  })
  .add(movementBodyByType.SALE, { id: 'SaleMovementRequest', description: "A sale: a quantity above 0, at the average cost; counts in the day's sales." })
  .add(movementBodyByType.ADJUSTMENT, { id: 'AdjustmentMovementRequest', description: 'A stock count: the on-hand quantity becomes `quantity`.' });

/**
 * Request schemas the document states through another schema: `movementBody` checks its
 * per-type rules in code (a refinement JSON Schema cannot read), so the document shows the same
 * rules as a union discriminated on `type` (`movementBodyDocs`, ./movement-docs.ts).
 */
export const documentedAs = new Map<Schema, Schema>([[movementBody, movementBodyDocs]]);

/** Component names of the response bodies: converted with `io: 'output'`; unnamed ones get `<RouteId>Response`. */
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
  .add(problemView, { id: 'Problem', description: 'An RFC 9457 problem document (`application/problem+json`).' })
  .add(validationProblemView, { id: 'ValidationProblem', description: 'The problem document of a 400: with `errors` when the request failed validation.' });

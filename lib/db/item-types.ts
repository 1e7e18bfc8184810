/**
 * The `type` attribute of every kind of item in the table, by area: what a repository
 * writes and what a reader tells items apart by. Plain strings in a module of their own, so
 * a function that only reads the store (the authorizer) does not load the models' zod
 * schemas at cold start.
 */

/**
 * The `type` attribute of the user's items: the user, its service-wide e-mail sentinel, its
 * entry in the tenant's list by name, the tenant's administrator count, and the user's
 * credentials (an item apart: lib/auth/model `credentialsSchema`).
 */
export const USER_ITEMS = { user: 'User', email: 'Email', listing: 'UserListing', adminCount: 'AdminCount', credentials: 'Credentials' } as const;

/**
 * The `type` attribute of the session's items: the session, and the blacklist entry of a
 * logged-out access token's jti (kept until the token expires).
 */
export const SESSION_ITEMS = { session: 'Session', revokedJti: 'RevokedJti' } as const;

/** The `type` attribute of an Idempotency-Key's record. */
export const IDEMPOTENCY_ITEMS = { key: 'IdempotencyKey' } as const;

/** The `type` attribute of a login's second-factor challenge. */
export const MFA_ITEMS = { challenge: 'MfaChallenge' } as const;

/** The `type` attribute of a password-reset token's item. */
export const PASSWORD_RESET_ITEMS = { passwordReset: 'PasswordReset' } as const;

/** The `type` attribute of an invitation's item. */
export const INVITATION_ITEMS = { invitation: 'Invitation' } as const;

/** The `type` attribute of the company's items: the company, its service-wide document sentinel and its entry in the tenant's list. */
export const COMPANY_ITEMS = { company: 'Company', document: 'CompanyDocument', listing: 'CompanyListing' } as const;

/** The `type` attribute of a product category's items: the category and its name sentinel (the list by name). */
export const CATEGORY_ITEMS = { category: 'Category', name: 'CategoryName' } as const;

/** The `type` attribute of a transfer's entries in the lists of transfers, of a transfer of several products, and of its entry while in transit. */
export const TRANSFER_ITEMS = { entry: 'TransferEntry', batch: 'TransferBatch', inTransit: 'TransferInTransit' } as const;

/** The `type` attribute of what a supplier sells (lib/supplier-products): the link (in each side's list), the code sentinel, the preferred marker, the counts. */
export const SUPPLIER_PRODUCT_ITEMS = {
  link: 'SupplierProduct',
  code: 'SupplierCode',
  preferred: 'PreferredSupplier',
  count: 'SupplierLinkCount',
} as const;

/** The `type` attribute of a purchase order's items (lib/purchase-orders): the order, its list entries, the company's sequence, the on-order figures. */
export const PURCHASE_ORDER_ITEMS = { order: 'PurchaseOrder', entry: 'PurchaseOrderEntry', sequence: 'PurchaseOrderSequence', onOrder: 'OnOrder' } as const;

/** The `type` attribute of a product's reorder settings (lib/purchasing). */
export const PURCHASING_ITEMS = { reorder: 'ReorderSettings' } as const;

/** The `type` attribute of a stock count's items (lib/counts). */
export const COUNT_ITEMS = {
  count: 'Count',
  entry: 'CountEntry',
  line: 'CountLine',
  rank: 'CountLineRank',
  lock: 'CountLock',
  productLock: 'CountProductLock',
} as const;

/** The `type` attribute of every inventory item. */
export const INVENTORY_ITEMS = {
  warehouse: 'Warehouse',
  /** A warehouse's entry in the tenant's list by name. */
  warehouseListing: 'WarehouseListing',
  product: 'Product',
  /** The tenant-wide SKU sentinel of a product. */
  productSku: 'ProductSku',
  /** A product's entry in the list of its status. */
  productStatusEntry: 'ProductStatusEntry',
  /** A product's entry in a list of its category (every status, or its own). */
  productCategoryEntry: 'ProductCategoryEntry',
  /** The tenant-wide GTIN sentinel of a product. */
  productGtin: 'ProductGtin',
  /** The balance of one product in one warehouse. */
  stock: 'Stock',
  movement: 'Movement',
  /** One business day's sales counter of a product (rolled up by the sales job). */
  salesDay: 'SalesDay',
  /** A product's rolled-up sales series. */
  productSales: 'ProductSales',
  /** The coverage index's marker (its entries carry no `type`, to stay small). */
  coverageMarker: 'CoverageMarker',
  /** A tenant with products, in the registry the coverage job walks. */
  coverageTenant: 'CoverageTenant',
} as const;

/**
 * The `type` attribute of the supplier's items: the supplier, and its document sentinel
 * (unique within the tenant). The compact index entries and the tenant's supplier count
 * carry no `type`.
 */
export const SUPPLIER_ITEMS = { supplier: 'Supplier', document: 'SupplierDocument' } as const;

/** The `type` attribute of the tenant's items: the tenant, and its service-wide name sentinel. */
export const TENANT_ITEMS = { tenant: 'Tenant', name: 'TenantName' } as const;

/** The `type` attribute of an audit entry (each of its copies) and of its origin (IP address, User-Agent: an item apart, kept shorter). */
export const AUDIT_ITEMS = { entry: 'AuditEntry', origin: 'AuditOrigin' } as const;

/** The `type` of an incident's item in the platform's register (lib/privacy/model). */
export const INCIDENT_ITEMS = { incident: 'Incident' } as const;

/** The `type` attribute of a searchable list's items: its manifest, a write's delta, a compressed chunk (lib/search/repository). */
export const SEARCH_ITEMS = { manifest: 'SearchManifest', delta: 'SearchDelta', chunk: 'SearchChunk' } as const;

/** The `type` of an API key's item and of its last use's address (lib/api-keys). */
export const API_KEY_ITEMS = { apiKey: 'ApiKey', use: 'ApiKeyUse' } as const;

/** The `type` of a domain event's item (lib/events). */
export const EVENT_ITEMS = { event: 'Event' } as const;

/** The `type` of the webhooks' items (lib/webhooks): an endpoint, its signing secrets (an item apart), one delivery. */
export const WEBHOOK_ITEMS = { endpoint: 'WebhookEndpoint', secrets: 'WebhookSecrets', delivery: 'WebhookDelivery' } as const;

/** The `type` attribute of a CSV import job. */
export const IMPORT_ITEMS = { job: 'ImportJob' } as const;

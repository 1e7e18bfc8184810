/**
 * The integrity checker's report (`npm run verify`): for each invariant the service maintains,
 * how many records it checked and the drift it found, each named by the keys of the items
 * involved, what was expected and what is stored; and what `--fix` mended.
 */
export const INVARIANTS = [
  'balance-replay',
  'warehouse-totals',
  'product-on-hand',
  'coverage-index',
  'sales-days',
  'supplier-count',
  'admin-count',
  'endpoint-count',
  'session-count',
  'supplier-documents',
  'product-skus',
  'product-gtins',
  'product-status-lists',
  'product-category-lists',
  'category-names',
  'category-counts',
  'count-totals',
  'warehouse-stock-index',
  'supplier-products',
  'purchase-orders',
  'supplier-search',
  'product-search',
  'references',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

/** What each invariant says, for the report. */
export const INVARIANT_TEXT: Record<Invariant, string> = {
  'balance-replay': "each balance is the replay of its movements, and each movement's balanceAfter the replay at its step",
  'warehouse-totals': "each warehouse's totals are the sums of its balances",
  'product-on-hand': "each product's on-hand is the sum of its balances",
  'coverage-index': 'each indexed coverage window holds each product once, at its place for its on-hand and units sold, and nothing else',
  'sales-days': "each product's daily sales counter is the sum of its SALE movements of that day (counters the seed wrote without movements aside)",
  'supplier-count': "the tenant's supplier count is the number of its suppliers",
  'admin-count': "the tenant's administrator count is the number of its administrators (when it has one)",
  'endpoint-count': "the tenant's webhook endpoint count is the number of its endpoints",
  'session-count':
    "each user's session count is at least the number of its sessions (a sign-out or an expiry leaves it higher until the next sign-in recounts)",
  'supplier-documents': 'each document sentinel points at a live supplier of that document, and each supplier has its sentinel',
  'product-skus': 'each SKU sentinel points at a live product of that SKU, and each product has its sentinel',
  'product-gtins': 'each GTIN sentinel points at a live product of that GTIN, and each product with a GTIN has its sentinel',
  'product-status-lists': "each entry of a status list points at a live product of that status and SKU, and each product is in its status's list",
  'product-category-lists':
    "each entry of a category's lists points at a live product of that category, status and SKU, and each product of a category is in its two lists (every status, its own)",
  'category-names': 'each category name sentinel points at a live category of that (normalized) name, and each category has its sentinel',
  'category-counts': "each category's product count is the number of products in it, and each product's category exists",
  'count-totals': "each stock count's totals are the sums of its lines, and its list by difference holds each line once, at its place",
  'warehouse-stock-index': "each balance with stock is in its warehouse's index of balances with stock (a count's scope), and no balance at 0 is",
  'supplier-products':
    "each supplier's product is in the supplier's and the product's lists with the same terms, each side's count is its number of links, and each code sentinel and preferred marker matches its link",
  'purchase-orders':
    "each company's purchase orders are numbered from 1 to its sequence's last, each number once, and what is on order of a product in a warehouse is what the open orders there still expect",
  'supplier-search': 'the supplier search finds exactly the live suppliers',
  'product-search': 'the product search finds exactly the live products',
  references: 'each balance names a product and a warehouse of the tenant, and each daily sales counter the tenant and one of its products',
};

export interface Drift {
  invariant: Invariant;
  /** The items involved, by their keys (`pk` / `sk`). */
  keys: { pk: string; sk: string }[];
  /** What is wrong, in words: the expected value and the stored one. */
  detail: string;
  /** Whether `--fix` can mend it (it repairs only what is derived from what is recorded). */
  fixable: boolean;
}

export interface InvariantReport {
  invariant: Invariant;
  checked: number;
  drift: Drift[];
}

export interface TenantReport {
  tenantId: string;
  invariants: InvariantReport[];
  /** The drift `--fix` mended (empty without `--fix`). */
  fixed: Drift[];
}

export const driftOf = (report: TenantReport): Drift[] => report.invariants.flatMap((entry) => entry.drift);

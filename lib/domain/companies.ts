/**
 * The company's enums that other areas' models name too (a warehouse keeps its company's
 * status; the dashboard shows its cost method). lib/companies/model re-exports them.
 */
export const COMPANY_STATUSES = ['ACTIVE', 'DISABLED', 'BLOCKED', 'SUSPENDED'] as const;
export const COST_METHODS = ['REPLACEMENT', 'WEIGHTED_AVERAGE'] as const;
export type CostMethod = (typeof COST_METHODS)[number];

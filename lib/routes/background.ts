/** The functions that run without a caller: the queue workers and the scheduled jobs. */
import type { AuditAction } from '../audit/model';
import type { TableAccess } from './types';

/**
 * The functions that consume a queue rather than answer a route or a schedule
 * (`functions/<area>/<noun>-worker.ts`): the webhook deliveries (infra/constructs/webhooks.ts,
 * fed by the table's stream through a pipe and by their own wake-ups), the imports' and the
 * exports' steps, the tenant jobs' steps. Each one's table access is granted exactly, as a route's.
 */
export const workers = {
  deliveryWorker: {
    name: 'delivery-worker',
    handler: 'functions/webhooks/delivery-worker.ts',
    // Deliveries (Put, claims and attempts by Update, reads by Get); the endpoints (Query, Get,
    // failing time by Update); an endpoint disabled with its entry (Update and Put in one
    // transaction); the administrators told (Query of the tenant's users).
    table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' } satisfies TableAccess,
    uses: ['mail'],
    summary: "Deliver the tenant's domain events to its webhook endpoints, and retry them on the schedule",
  },
  importWorker: {
    name: 'import-worker',
    handler: 'functions/imports/import-worker.ts',
    // The job (Get, steps by Update); each row created as its route creates it: a supplier (its
    // count, block and search delta by Update, document and block reads by Get and Query) or a
    // product (Put in a transaction, its coverage tenant registered by Update, its category's
    // count by Update, a category it names found by Get or made by Put); a dry run's
    // lookups of documents and SKUs (BatchGet). Opening stock: a count per warehouse opened
    // (a transaction of Put and Update), each row's line written conditioned on its balance
    // (ConditionCheck), then the counts closed as POST /inventory/counts/{id}/close closes them
    // (its lines by Query, its rest sent to the tenant jobs' queue: infra/stack.ts binds it).
    table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] } satisfies TableAccess,
    audits: ['count.created', 'count.line_counted', 'count.closed'] satisfies AuditAction[],
    summary: 'Run the steps of CSV imports: check every row, create a batch of them (or count opening stock), send the next step',
  },
  exportWorker: {
    name: 'export-worker',
    handler: 'functions/exports/export-worker.ts',
    // The job (Get; taken, its progress and its end by Update); the source's pages: suppliers
    // (index by Query, items by BatchGet), products (SKU list and warehouses by Query, items and
    // balances by BatchGet), the stock history and the audit trail with its origins (Query);
    // its tenant and user read again before it runs (Get), its pending-job marker removed at its end (Delete).
    table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem', 'DeleteItem'] } satisfies TableAccess,
    summary: 'Write CSV exports: read the source in pages and stream the rows to the file',
  },
  tenantJobWorker: {
    name: 'tenant-job-worker',
    handler: 'functions/tenants/tenant-job-worker.ts',
    // The whole table's Scan (a closed tenant's items are under many keys), its items deleted
    // in batches (BatchWrite), the progress on the tenant's or the export's item (Get, Update),
    // the last transaction (Delete, Put of the entries). A deletion removes the tenant's
    // credentials and webhook secrets, and a Scan reads them. A count's close (lib/counts/close)
    // reads its lines and the warehouse's balances with stock (BatchGet, Query, the index) and
    // applies them in transactions (ConditionCheck-free: Put, Update, Delete).
    table: {
      actions: ['GetItem', 'BatchGetItem', 'Query', 'Scan', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
      indexes: ['gsi1'],
      credentials: 'read-write',
      webhookSecrets: 'read-write',
    } satisfies TableAccess,
    /** In the platform's trail: the count before, then the counts at the end. */
    audits: ['tenant.deletion_started', 'tenant.deleted', 'count.closed'] satisfies AuditAction[],
    summary: "Run the steps of the tenant jobs: a closed tenant's deletion, a tenant's export, a large stock count's close",
  },
} as const;

/** Scheduled jobs: each its own function on an EventBridge schedule (UTC cron fields). */
export const jobs = {
  salesRollup: {
    name: 'sales-rollup',
    handler: 'functions/jobs/sales-rollup.ts',
    // The markers' transactions check the tenant's item (ConditionCheck): none is written for a tenant being deleted.
    table: {
      actions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      indexes: ['gsi1'],
    } satisfies TableAccess,
    /** 03:15 UTC = 00:15 in America/Sao_Paulo (UTC-3, no daylight saving since 2019). */
    schedule: { hour: 3, minute: 15 },
    summary: "Roll each complete day's sales up for the coverage dashboard",
  },
  tenantDeletion: {
    name: 'tenant-deletion',
    handler: 'functions/jobs/tenant-deletion.ts',
    // The schedule's due entries (Query), each tenant read (Get), its users (Query), marked DELETING
    // (Update) with its Scan's first position in an item of its own (Put, lib/db/keys `scanPosition`).
    table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } satisfies TableAccess,
    /** After the sales roll-up (03:15 UTC). */
    schedule: { hour: 4, minute: 0 },
    summary: 'Start the deletion of each closed tenant whose grace period is over',
  },
  integrityCheck: {
    name: 'integrity-check',
    handler: 'functions/jobs/integrity-check.ts',
    // verify without --fix: each tenant's records and derived items (Query, Get, BatchGet), the tenants' name index (gsi1).
    table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } satisfies TableAccess,
    /** After the roll-up and the deletions, once the night's writes are done. */
    schedule: { hour: 5, minute: 0 },
    /** Deployed with its rule disabled: a stage turns it on (context `enableJobs=integrityCheck`); `npm start` runs it only on demand. */
    optional: true,
    summary: "Check every tenant's maintained numbers against what is recorded (npm run verify --all), to a metric and an alarm",
  },
} as const;

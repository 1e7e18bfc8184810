import type { Context, ScheduledEvent } from 'aws-lambda';
import { counted } from '../../lib/domain/text';
import { allTenantIds, verifyTenant } from '../../lib/integrity/engine';
import { driftOf } from '../../lib/integrity/model';
import { logger } from '../../lib/log';
import { countIntegrityDrift } from '../../lib/metrics';

/** What a run found: tenants checked, those with drift, and whether it stopped before the last tenant. */
export interface IntegrityCheckResult {
  tenants: number;
  drifted: number;
  drift: number;
  complete: boolean;
}

/** Stop starting tenants this long before the function's timeout: a run cut short says so instead of dying mid-tenant. */
const MARGIN_MS = 60_000;

/**
 * The scheduled integrity check: `npm run verify -- --all` without `--fix`, each tenant in
 * turn (lib/integrity). Each drift is logged as an error line with its keys; the total goes
 * to the IntegrityDrift metric (0 on a clean run), which an alarm watches; drift also fails
 * the run, so the jobs' failure alarm fires and the event lands in the dead-letter queue.
 * Repairs stay an operator's decision (`npm run verify -- --tenant <id> --fix`). Deployed with
 * its schedule off unless the stage turns it on (docs/administration.md).
 */
export const handler = async (_event: ScheduledEvent, context?: Context): Promise<IntegrityCheckResult> => {
  if (context) logger.addContext(context);
  const result: IntegrityCheckResult = { tenants: 0, drifted: 0, drift: 0, complete: true };
  for await (const tenantId of allTenantIds()) {
    if (context && context.getRemainingTimeInMillis() < MARGIN_MS) {
      result.complete = false;
      break;
    }
    const found = driftOf(await verifyTenant(tenantId));
    result.tenants += 1;
    if (found.length === 0) continue;
    result.drifted += 1;
    result.drift += found.length;
    for (const drift of found)
      logger.error('integrity drift', { tenantId, invariant: drift.invariant, detail: drift.detail, keys: drift.keys, fixable: drift.fixable });
  }
  countIntegrityDrift(result.drift);
  if (!result.complete) logger.warn('integrity check stopped before its timeout', { tenants: result.tenants });
  if (result.drift > 0)
    throw new Error(
      `integrity check: ${counted(result.drift, 'drift')} in ${counted(result.drifted, 'tenant')} of ${counted(result.tenants, 'tenant')} checked (each logged with its keys)`,
    );
  return result;
};

import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { listIncidents, putIncident, setIncidentNotified } from './incidents-repository';
import { canonicalInstant, incidentInputSchema, newIncident, type Incident, type IncidentInput } from './model';

/** The command line's options as parseArgs reads them (all text). */
export interface IncidentOptions {
  id?: string;
  summary?: string;
  'detected-at'?: string;
  categories?: string;
  holders?: string;
  'notified-at'?: string;
}

/**
 * An incident's input from the command line, or what is wrong with it (one line per option):
 * categories comma-separated, holders a whole number, the instants ISO 8601 with a zone.
 */
export function incidentInputOf(options: IncidentOptions): { input: IncidentInput } | { problems: string[] } {
  const holders = options.holders !== undefined && /^\d+$/.test(options.holders.trim()) ? Number(options.holders) : options.holders;
  const parsed = incidentInputSchema.safeParse({
    summary: options.summary,
    detectedAt: options['detected-at'],
    categories: options.categories
      ?.split(',')
      .map((category) => category.trim())
      .filter(Boolean),
    holders,
    notifiedAt: options['notified-at'] ?? null,
  });
  if (parsed.success) return { input: parsed.data };
  const OPTION: Record<string, string> = {
    summary: '--summary',
    detectedAt: '--detected-at',
    categories: '--categories',
    holders: '--holders',
    notifiedAt: '--notified-at',
  };
  return { problems: parsed.error.issues.map((issue) => `${OPTION[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`) };
}

/** Register an incident detected and recorded as given; answered as the register keeps it. */
export async function recordIncident(input: IncidentInput, nowMs: number, timeZone: string): Promise<Incident> {
  const incident = newIncident(input, randomUUID(), nowMs, timeZone);
  await putIncident(incident);
  return incident;
}

/** The register, newest detection first. */
export const readRegister = (): Promise<Incident[]> => listIncidents();

/** Which incident was notified, and when, from the command line (`notified --id --detected-at --notified-at`), or what is wrong. */
export function notificationOf(options: IncidentOptions): { id: string; detectedAt: string; notifiedAt: string } | { problems: string[] } {
  const problems: string[] = [];
  if (!z.uuid().safeParse(options.id).success) problems.push('--id: must be the id `list` shows');
  if (!z.iso.datetime().safeParse(options['detected-at']).success) problems.push("--detected-at: must be the incident's, as `list` shows it");
  if (!z.iso.datetime().safeParse(options['notified-at']).success) problems.push('--notified-at: must be an ISO 8601 instant');
  return problems.length
    ? { problems }
    : {
        id: options.id as string,
        detectedAt: canonicalInstant(options['detected-at'] as string),
        notifiedAt: canonicalInstant(options['notified-at'] as string),
      };
}

/** Note a registered incident's notification; false when the register has no such incident. */
export const recordNotification = (notification: { id: string; detectedAt: string; notifiedAt: string }): Promise<boolean> =>
  setIncidentNotified(notification.detectedAt, notification.id, notification.notifiedAt);

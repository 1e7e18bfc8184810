import * as z from 'zod/mini';
import { addDays, dayOf } from '../domain/days';
import { schema } from '../domain/schema';

/**
 * The register of security incidents with personal data (Res. CD/ANPD 15/2024): every incident
 * is registered, whether or not it was notified, and the register is kept 5 years. An incident
 * that may bring relevant risk or damage to the holders is notified to ANPD (its form) and to
 * them within 3 business days of its becoming known. The platform's, not a tenant's: written
 * by the operators' command `npm run incident` (scripts/incident.ts), never by a route.
 */

/** Five years (a leap day or two included), then DynamoDB's TTL removes the incident. */
export const INCIDENT_RETENTION_DAYS = 5 * 365 + 2;

/** Business days to notify ANPD and the holders, from when the incident became known. */
export const NOTIFICATION_BUSINESS_DAYS = 3;

export const incidentInputSchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** What happened, in a few lines: what data, how it was exposed, what was done. */
    summary: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
    /** When the incident became known to the controller. */
    detectedAt: z.iso.datetime(),
    /** The categories of personal data involved (e-mail addresses, names, IP addresses, ...). */
    categories: z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(20)),
    /** How many holders (data subjects) are or may be affected. */
    holders: z.int().check(z.gte(0)),
    /** When ANPD and the holders were notified; null while not (or when the risk did not call for it). */
    notifiedAt: z.nullable(z.iso.datetime()),
  }),
);
export type IncidentInput = z.infer<typeof incidentInputSchema>;

export const incidentSchema = /* @__PURE__ */ schema(() =>
  z.object({
    ...incidentInputSchema.shape,
    id: z.uuid(),
    /** When the register received it. */
    recordedAt: z.iso.datetime(),
    /** The last business day (São Paulo) to notify: 3 weekdays after the day it became known (national holidays push it further; not counted here). */
    notifyBy: z.string(),
  }),
);
export type Incident = z.infer<typeof incidentSchema>;

/** The business day `count` weekdays after the day `detectedAt` falls on in `timeZone` (Saturdays and Sundays skipped). */
export function notificationDeadline(detectedAt: string, timeZone: string, count = NOTIFICATION_BUSINESS_DAYS): string {
  let day = dayOf(Date.parse(detectedAt), timeZone);
  for (let left = count; left > 0;) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T12:00:00.000Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

/** The incident the register keeps for an operator's input, recorded at `nowMs`. */
export function newIncident(input: IncidentInput, id: string, nowMs: number, timeZone: string): Incident {
  // Instants as toISOString writes them (milliseconds, Z), so the register sorts by time as text.
  const detectedAt = canonicalInstant(input.detectedAt);
  const notifiedAt = input.notifiedAt === null ? null : canonicalInstant(input.notifiedAt);
  return { ...input, detectedAt, notifiedAt, id, recordedAt: new Date(nowMs).toISOString(), notifyBy: notificationDeadline(detectedAt, timeZone) };
}

/** An ISO 8601 instant as `toISOString` writes it (`2026-11-26T10:00:00Z` becomes `2026-11-26T10:00:00.000Z`). */
export const canonicalInstant = (instant: string): string => new Date(instant).toISOString();

import { createHash } from 'node:crypto';
import { base62ToUuid, fromBase62, toBase62, UUID_BASE62_CHARS, uuidToBase62 } from '../domain/base62';

/**
 * A delivery's id (40 characters of base62): its endpoint's id (22), the instant of its event
 * in milliseconds (8) and 10 characters of the SHA-256 of the event's id. Two things follow:
 * - one event gives one delivery per endpoint, whoever makes it: a stream record read twice,
 *   or a delivery function that died after storing the delivery and is run again, finds the
 *   delivery already there instead of making a second one;
 * - the id locates the record (the endpoint's partition, sorted by time), so
 *   `POST /webhook-deliveries/{id}/retry` reads it with one GetItem, without an index.
 * The id is no secret: it is listed in the endpoint's delivery log. Pure.
 */

const TIME_CHARS = 8;
const DIGEST_CHARS = 10;
export const DELIVERY_ID_CHARS = UUID_BASE62_CHARS + TIME_CHARS + DIGEST_CHARS;
export const DELIVERY_ID_PATTERN = new RegExp(`^[0-9A-Za-z]{${DELIVERY_ID_CHARS}}$`);

export function deliveryIdOf(endpointId: string, createdAt: string, eventId: string): string {
  const digest = BigInt(`0x${createHash('sha256').update(`${eventId}\n${endpointId}`).digest('hex').slice(0, 14)}`);
  return uuidToBase62(endpointId) + toBase62(BigInt(Date.parse(createdAt)), TIME_CHARS) + toBase62(digest, DIGEST_CHARS);
}

/** Where a delivery's record is, from its id; undefined for text that is no delivery id. */
export function locateDelivery(id: string): { endpointId: string; createdAt: string } | undefined {
  if (!DELIVERY_ID_PATTERN.test(id)) return undefined;
  const endpointId = base62ToUuid(id.slice(0, UUID_BASE62_CHARS));
  const ms = Number(fromBase62(id.slice(UUID_BASE62_CHARS, UUID_BASE62_CHARS + TIME_CHARS)));
  if (endpointId === undefined || ms > 8.64e15) return undefined;
  return { endpointId, createdAt: new Date(ms).toISOString() };
}

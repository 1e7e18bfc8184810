import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { EVENT_ITEMS } from '../db/item-types';
import type { DomainEvent } from '../domain/events';
import { advance, dispatch, secondsUntilDue, type DeliveryDeps, type DeliveryRef } from './delivery';
import type { WebhookDelivery } from './model';

/**
 * The delivery engine's messages, as the stack runs it (infra/constructs/webhooks.ts) and as
 * `npm start` does (local/webhooks.ts):
 * - a record of the table's stream, the insert of an event item (an EventBridge pipe forwards
 *   the stream's inserts of events to the queue as they are): its event is dispatched, a
 *   delivery and first attempt per subscribed endpoint;
 * - a wake-up `{ kind: 'delivery', … }`: look at that delivery now and move it on (`advance`).
 * After either, each delivery still pending asks for a wake-up when its next attempt is due;
 * SQS holds a message back at most 15 minutes, so a longer wait is a chain of wake-ups, each
 * finding the delivery not yet due and asking again. Every step reads the delivery's state
 * first, so a message handled twice (SQS delivers at least once) does no harm.
 */

/** A stream record as the pipe forwards it (the shape of a DynamoDB stream record in JSON). */
export interface StreamRecordMessage {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue> };
}

export interface WakeUpMessage extends DeliveryRef {
  kind: 'delivery';
}

export type EngineMessage = StreamRecordMessage | WakeUpMessage;

/** The longest SQS holds a message back. */
export const MAX_WAKE_UP_DELAY_SECONDS = 900;

/** Where wake-ups go: SQS with DelaySeconds on AWS, a timer under npm start. */
export type WakeUps = (message: WakeUpMessage, delaySeconds: number) => Promise<void>;

const isWakeUp = (message: EngineMessage): message is WakeUpMessage => (message as WakeUpMessage).kind === 'delivery';

/** The domain event a stream record inserts, if it inserts an event item. */
export function eventOfRecord(record: StreamRecordMessage): DomainEvent | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image || image.type?.S !== EVENT_ITEMS.event) return undefined;
  const item = unmarshall(image);
  return item.event ? (item.event as DomainEvent) : undefined;
}

/** Ask to be woken when a pending delivery's next step is due (nothing for one that is finished). */
async function wakeUpFor(delivery: WebhookDelivery | undefined, deps: DeliveryDeps, wakeUps: WakeUps): Promise<void> {
  const seconds = delivery && secondsUntilDue(delivery, deps.now());
  if (delivery === undefined || seconds === undefined) return;
  const { tenantId, endpointId, createdAt, id } = delivery;
  await wakeUps({ kind: 'delivery', tenantId, endpointId, createdAt, id }, Math.min(seconds, MAX_WAKE_UP_DELAY_SECONDS));
}

/** Handle one message; throws when it must be handled again (the queue retries it, then parks it in its dead-letter queue). */
export async function handleMessage(message: EngineMessage, deps: DeliveryDeps, wakeUps: WakeUps): Promise<WebhookDelivery[]> {
  if (isWakeUp(message)) {
    const delivery = await advance(message, deps);
    await wakeUpFor(delivery, deps, wakeUps);
    return delivery ? [delivery] : [];
  }
  const event = eventOfRecord(message);
  if (!event) return [];
  const deliveries = await dispatch(event, deps);
  await Promise.all(deliveries.map((delivery) => wakeUpFor(delivery, deps, wakeUps)));
  return deliveries;
}

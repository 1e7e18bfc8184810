import { marshall } from '@aws-sdk/util-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_ITEMS } from '../../lib/db/item-types';
import type { DomainEvent } from '../../lib/domain/events';
import { eventOfRecord, handleMessage, MAX_WAKE_UP_DELAY_SECONDS, type WakeUpMessage, type WakeUps } from '../../lib/webhooks/engine';
import { RETRY_SCHEDULE_SECONDS } from '../../lib/webhooks/model';
import { event, world } from '../support/webhook-world';

/**
 * The engine's messages (lib/webhooks/engine): a stream record of an event dispatches it, a
 * wake-up moves one delivery on, and every delivery left pending asks for a wake-up when it is
 * due, in hops of at most 15 minutes (SQS's longest delay).
 */

const record = (inserted: DomainEvent, eventName = 'INSERT', type: string = EVENT_ITEMS.event) => ({
  eventName,
  dynamodb: { NewImage: marshall({ pk: 'TENANT#t#EVENTS', sk: 'x', type, event: inserted }) },
});

let w: ReturnType<typeof world>;
let asked: { message: WakeUpMessage; delaySeconds: number }[];
const wakeUps: WakeUps = (message, delaySeconds) => {
  asked.push({ message, delaySeconds });
  return Promise.resolve();
};
beforeEach(() => {
  w = world();
  asked = [];
});

describe('eventOfRecord', () => {
  it('reads the event of an inserted event item, and nothing from other records', () => {
    const sent = event();
    expect(eventOfRecord(record(sent))).toEqual(sent);
    expect(eventOfRecord(record(sent, 'MODIFY'))).toBeUndefined();
    expect(eventOfRecord(record(sent, 'REMOVE'))).toBeUndefined();
    expect(eventOfRecord(record(sent, 'INSERT', 'Product'))).toBeUndefined();
    expect(eventOfRecord({ eventName: 'INSERT' })).toBeUndefined();
  });
});

describe('handleMessage', () => {
  it('a stream record dispatches its event; a delivery that succeeded asks for no wake-up', async () => {
    const { endpoint } = w.register();
    const deliveries = await handleMessage(record(event()), w.deps, wakeUps);
    expect(deliveries.map((one) => [one.endpointId, one.status])).toEqual([[endpoint.id, 'succeeded']]);
    expect(asked).toEqual([]);
  });

  it('a failed first attempt asks for a wake-up when the retry is due; the wake-up retries it', async () => {
    w.register();
    w.answer(() => new Response('', { status: 500 }));
    const [pending] = await handleMessage(record(event()), w.deps, wakeUps);
    expect(pending?.status).toBe('pending');
    const [first] = asked;
    expect(first).toEqual({
      message: { kind: 'delivery', tenantId: pending?.tenantId, endpointId: pending?.endpointId, createdAt: pending?.createdAt, id: pending?.id },
      delaySeconds: RETRY_SCHEDULE_SECONDS[0],
    });
    w.advance(RETRY_SCHEDULE_SECONDS[0] * 1000);
    const [retried] = await handleMessage(first?.message as WakeUpMessage, w.deps, wakeUps);
    expect(retried).toMatchObject({ id: pending?.id, status: 'succeeded' });
    expect(asked).toHaveLength(1);
  });

  it('a wait longer than SQS holds a message is a chain of wake-ups, each finding the delivery not yet due', async () => {
    w.register();
    w.answer(...Array.from({ length: 4 }, () => () => new Response('', { status: 503 })));
    const [pending] = await handleMessage(record(event()), w.deps, wakeUps);
    let message = asked.at(-1)?.message as WakeUpMessage;
    // Through the 5 s and 5 min steps to the 30 min one.
    for (const step of RETRY_SCHEDULE_SECONDS.slice(0, 2)) {
      w.advance(step * 1000);
      await handleMessage(message, w.deps, wakeUps);
      message = asked.at(-1)?.message as WakeUpMessage;
    }
    expect(asked.at(-1)?.delaySeconds).toBe(MAX_WAKE_UP_DELAY_SECONDS);
    w.advance(MAX_WAKE_UP_DELAY_SECONDS * 1000);
    const [waiting] = await handleMessage(message, w.deps, wakeUps);
    expect(waiting?.attempts).toHaveLength(3);
    expect(asked.at(-1)?.delaySeconds).toBe(RETRY_SCHEDULE_SECONDS[2] - MAX_WAKE_UP_DELAY_SECONDS);
    w.advance((RETRY_SCHEDULE_SECONDS[2] - MAX_WAKE_UP_DELAY_SECONDS) * 1000);
    const [fourth] = await handleMessage(asked.at(-1)?.message as WakeUpMessage, w.deps, wakeUps);
    expect(fourth).toMatchObject({ id: pending?.id, status: 'pending' });
    expect(fourth?.attempts).toHaveLength(4);
  });

  it('the same record or wake-up handled twice (SQS delivers at least once) sends once', async () => {
    w.register();
    const once = record(event());
    await Promise.all([handleMessage(once, w.deps, wakeUps), handleMessage(once, w.deps, wakeUps)]);
    expect(w.sent).toHaveLength(1);
    w.answer(() => new Response('', { status: 500 }));
    await handleMessage(record(event()), w.deps, wakeUps);
    const message = asked.at(-1)?.message as WakeUpMessage;
    w.advance(RETRY_SCHEDULE_SECONDS[0] * 1000);
    await Promise.all([handleMessage(message, w.deps, wakeUps), handleMessage(message, w.deps, wakeUps)]);
    expect(w.sent).toHaveLength(3);
  });

  it('a wake-up for a delivery that is gone or finished does nothing', async () => {
    const { endpoint } = w.register();
    const [done] = await handleMessage(record(event()), w.deps, wakeUps);
    const again = await handleMessage(
      { kind: 'delivery', tenantId: endpoint.tenantId, endpointId: endpoint.id, createdAt: done?.createdAt ?? '', id: done?.id ?? '' },
      w.deps,
      wakeUps,
    );
    expect(again.map((one) => one.status)).toEqual(['succeeded']);
    expect(
      await handleMessage(
        { kind: 'delivery', tenantId: endpoint.tenantId, endpointId: endpoint.id, createdAt: done?.createdAt ?? '', id: 'gone' },
        w.deps,
        wakeUps,
      ),
    ).toEqual([]);
    expect(w.sent).toHaveLength(1);
    expect(asked).toEqual([]);
  });
});

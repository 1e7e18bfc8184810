import { useRetryDelivery, useSendTestPing } from '../../api/webhooks';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { webhookMessages } from './webhook-messages';
import { lastAttemptOf, type AttemptOutcome } from './webhooks';
import type { Delivery } from './WebhookDeliveries';

/** An attempt's answer in words: `HTTP 200, 35 ms`, or `no answer, 10,000 ms`. */
export function useOutcomeText(): (outcome: AttemptOutcome & { latencyMs: number }) => string {
  const t = useMessages(webhookMessages);
  const { locale } = useLocale();
  return (outcome) =>
    t.answerLine(outcome.kind === 'noAnswer' ? t.noAnswer : t.statusCode(outcome.statusCode), t.latency(formatDecimal(outcome.latencyMs, locale)));
}

/** What a send now got back, in words; an empty string before any attempt. */
function useLastOutcome(): (delivery: Delivery) => string {
  const text = useOutcomeText();
  return (delivery) => {
    const last = lastAttemptOf(delivery);
    return last ? text(last) : '';
  };
}

/**
 * POST /webhook-endpoints/{id}/test: a signed `ping` now, its answer said in `onSent`'s text and
 * the log read again. Not idempotent (each is one more request to the receiver): the caller
 * disables its button while `isPending`.
 */
export function useSendTest(onSent: (text: string) => void) {
  const t = useMessages(webhookMessages);
  const outcome = useLastOutcome();
  return useSendTestPing({ onSuccess: (delivery, endpoint) => onSent(t.testSent(endpoint.url, outcome(delivery))) });
}

/** POST /webhook-deliveries/{id}/retry: the delivery sent again now, the new attempt said in `onSent`'s text and the log read again. */
export function useRetry(onSent: (text: string) => void) {
  const t = useMessages(webhookMessages);
  const outcome = useLastOutcome();
  return useRetryDelivery({ onSuccess: (sent) => onSent(t.retried(t.eventName(sent.eventType), outcome(sent))) });
}

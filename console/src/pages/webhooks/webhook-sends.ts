import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { webhookMessages } from './webhook-messages';
import { lastAttemptOf, WEBHOOKS, type AttemptOutcome } from './webhooks';
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

/** The endpoint's delivery log shows the new delivery or attempt: its queries are read again. */
function useLogRefresh(): (endpointId: string) => Promise<void> {
  const queryClient = useQueryClient();
  return (endpointId) => queryClient.invalidateQueries({ queryKey: [...WEBHOOKS, endpointId, 'deliveries'] });
}

/**
 * POST /webhook-endpoints/{id}/test: a signed `ping` now, its answer said in `onSent`'s text and
 * the log read again. Not idempotent (each is one more request to the receiver): the caller
 * disables its button while `isPending`.
 */
export function useSendTest(onSent: (text: string) => void) {
  const t = useMessages(webhookMessages);
  const outcome = useLastOutcome();
  const refreshLog = useLogRefresh();
  return useMutation({
    mutationFn: (endpoint: { id: string; url: string }) => unwrap(api.POST('/webhook-endpoints/{id}/test', { params: { path: { id: endpoint.id } } })),
    onSuccess: (delivery, endpoint) => {
      onSent(t.testSent(endpoint.url, outcome(delivery)));
      void refreshLog(endpoint.id);
    },
  });
}

/** POST /webhook-deliveries/{id}/retry: the delivery sent again now, the new attempt said in `onSent`'s text and the log read again. */
export function useRetry(onSent: (text: string) => void) {
  const t = useMessages(webhookMessages);
  const outcome = useLastOutcome();
  const refreshLog = useLogRefresh();
  return useMutation({
    mutationFn: (delivery: Delivery) => unwrap(api.POST('/webhook-deliveries/{id}/retry', { params: { path: { id: delivery.id } } })),
    onSuccess: (sent) => {
      onSent(t.retried(t.eventName(sent.eventType), outcome(sent)));
      void refreshLog(sent.endpointId);
    },
  });
}

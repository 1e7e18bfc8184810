import { useEffect, useRef, useState } from 'react';
import type { components } from '@backoffice/client';
import { useDeliveryLog } from '../../api/webhooks';
import { SelectField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { webhookMessages } from './webhook-messages';
import { useOutcomeText, useRetry } from './webhook-sends';
import { attemptOutcome, DELIVERED_TYPES, DELIVERY_STATUSES, NO_DELIVERY_FILTERS, type DeliveryFilters } from './webhooks';
import type { WebhookEndpoint } from './WebhooksSection';

export type Delivery = components['schemas']['ListWebhookDeliveriesResponse'][number];
type Attempt = Delivery['attempts'][number];

/**
 * An endpoint's delivery log (GET /webhook-endpoints/{id}/deliveries, newest first), filtered by
 * status and event type, read a page at a time: "load more" follows the `Link` header's cursor
 * and adds the next page below. With a filter a page may be short while more follow, so the
 * button shows while a cursor does, whatever the page's length.
 */
export function DeliveryLog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const t = useMessages(webhookMessages);
  const [filters, setFilters] = useState<DeliveryFilters>(NO_DELIVERY_FILTERS);
  const log = useDeliveryLog(endpoint.id, filters);
  const deliveries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const [notice, setNotice] = useState('');
  const retry = useRetry(setNotice);
  // Opened from a row's button: the heading takes the focus, so keyboard and screen reader users land on the log.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="webhook-log" aria-labelledby="webhook-log-title">
      <div className="webhook-log-header">
        <h3 id="webhook-log-title" ref={heading} tabIndex={-1}>
          {t.logTitle(endpoint.url)}
        </h3>
        <button type="button" className="button secondary" onClick={onClose}>
          {t.closeLog}
        </button>
      </div>
      <p className="muted">{t.logIntro}</p>
      <p role="status" className="muted">
        {notice}
      </p>
      {retry.error ? <ProblemAlert error={retry.error} /> : null}
      <DeliveryFilterForm filters={filters} onChange={setFilters} onRefresh={() => void log.refetch()} refreshing={log.isFetching} />
      {log.isPending ? <SkeletonRows rows={3} columns={5} /> : null}
      {log.error ? <ProblemAlert error={log.error} onRetry={() => void log.refetch()} /> : null}
      {log.data && deliveries.length === 0 ? <EmptyState title={t.noDeliveries} hint={t.noDeliveriesHint} /> : null}
      {deliveries.length > 0 ? (
        <DeliveryTable
          deliveries={deliveries}
          retrying={retry.isPending}
          onRetry={(delivery) => {
            setNotice('');
            retry.mutate(delivery);
          }}
        />
      ) : null}
      {log.data ? (
        <div className="toolbar">
          <span className="muted small" aria-live="polite">
            {t.shownCount(deliveries.length)}
          </span>
          {log.hasNextPage ? (
            <button type="button" className="button secondary" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              {t.loadMore}
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** Status and event type, applied as soon as chosen (each choice reads the log from its first page), and a refresh. */
function DeliveryFilterForm({
  filters,
  onChange,
  onRefresh,
  refreshing,
}: {
  filters: DeliveryFilters;
  onChange: (filters: DeliveryFilters) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const t = useMessages(webhookMessages);
  const any = { value: '', label: t.anyValue };
  return (
    <div className="form-row webhook-log-filters" role="group" aria-label={t.filters}>
      <SelectField
        label={t.status}
        value={filters.status}
        onValueChange={(status) => onChange({ ...filters, status })}
        options={[any, ...DELIVERY_STATUSES.map((status) => ({ value: status, label: t.statusName(status) }))]}
      />
      <SelectField
        label={t.eventType}
        value={filters.eventType}
        onValueChange={(eventType) => onChange({ ...filters, eventType })}
        options={[any, ...DELIVERED_TYPES.map((type) => ({ value: type, label: t.eventName(type) }))]}
      />
      <button type="button" className="button secondary" onClick={onRefresh} disabled={refreshing}>
        {t.refresh}
      </button>
    </div>
  );
}

type RowActions = { retrying: boolean; onRetry: (delivery: Delivery) => void };

function DeliveryTable({ deliveries, ...actions }: { deliveries: Delivery[] } & RowActions) {
  const t = useMessages(webhookMessages);
  const c = useMessages(common);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.logCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.eventType}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{t.createdAt}</th>
            <th scope="col">{t.attempts}</th>
            <th scope="col">{t.nextAttempt}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DeliveryRow({ delivery, retrying, onRetry }: { delivery: Delivery } & RowActions) {
  const t = useMessages(webhookMessages);
  const tone = delivery.status === 'succeeded' ? 'ok' : delivery.status === 'failed' ? 'danger' : 'warn';
  return (
    <tr>
      <td>
        {t.eventName(delivery.eventType)} <code className="muted small">{delivery.eventType}</code>
      </td>
      <td>
        <span className={`badge ${tone}`}>{t.statusName(delivery.status)}</span>
      </td>
      <td>{formatDateTime(delivery.createdAt)}</td>
      <td>
        {delivery.attempts.length === 0 ? (
          <span className="muted">{t.noAttempts}</span>
        ) : (
          <ol className="webhook-attempts">
            {delivery.attempts.map((attempt) => (
              <AttemptItem key={attempt.at} attempt={attempt} />
            ))}
          </ol>
        )}
      </td>
      <td>{delivery.nextAttemptAt ? formatDateTime(delivery.nextAttemptAt) : <span className="muted">{t.noNextAttempt}</span>}</td>
      <td>
        <button
          type="button"
          className="button secondary"
          aria-label={t.retryDelivery(t.eventName(delivery.eventType), delivery.id.slice(0, 8))}
          disabled={retrying}
          onClick={() => onRetry(delivery)}
        >
          {t.retry}
        </button>
      </td>
    </tr>
  );
}

/** One attempt: when, the status code or "no answer", the latency, and the answer's first 1 KB (or why none came). */
function AttemptItem({ attempt }: { attempt: Attempt }) {
  const t = useMessages(webhookMessages);
  const outcomeText = useOutcomeText();
  const outcome = attemptOutcome(attempt.statusCode);
  return (
    <li>
      <span
        className={outcome.kind === 'answered' && outcome.ok ? undefined : 'webhook-attempt-failed'}
      >{`${formatDateTime(attempt.at)}: ${outcomeText({ ...outcome, latencyMs: attempt.latencyMs })}`}</span>
      {attempt.response ? (
        <span className="webhook-response">
          <span className="visually-hidden">{t.response}: </span>
          <code>{attempt.response}</code>
        </span>
      ) : null}
    </li>
  );
}

import { useState, type FormEvent } from 'react';
import type { components, operations } from '@backoffice/client';
import { useAuditEvents } from '../../api/audit';
import { useUsers } from '../../api/users';
import { SelectField, TextField } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZE,
  changesText,
  isShortPage,
  NO_FILTERS,
  RESOURCE_TYPES,
  type AuditAction,
  type AuditFilters,
  type ResourceType,
} from './logic';
import { auditLabels } from './audit-labels';
import { adminMessages } from '../settings/messages';
import { useCursorStack } from '../../components/useCursorStack';

type AuditEvent = components['schemas']['ListAuditEventsResponse']['items'][number];
type ApiAuditQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Checked when compiled: the actions and resource types the filter offers are exactly the API's. */
export const FILTERS_MATCH_THE_API: [Same<AuditAction, NonNullable<ApiAuditQuery['action']>>, Same<ResourceType, NonNullable<ApiAuditQuery['resourceType']>>] =
  [true, true];

/**
 * The tenant's audit trail (GET /audit-events), newest first, filtered by action, resource
 * type, actor and days. Paged by `nextCursor`: with several filters a page may be short, even
 * empty, while a next one exists, so "next page" follows the cursor, not the page's length.
 */
export function AuditSection() {
  const t = useMessages(adminMessages);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const paging = useCursorStack();
  const events = useAuditEvents(filters, paging.cursor);
  const apply = (next: AuditFilters) => {
    setFilters(next);
    paging.reset();
  };
  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">{t.auditTitle}</h2>
      <AuditFilterForm applied={filters} onApply={apply} />
      {events.isPending ? <SkeletonRows rows={4} columns={5} /> : null}
      {events.error ? <ProblemAlert error={events.error} onRetry={() => void events.refetch()} /> : null}
      {events.data && isShortPage(events.data.items.length, AUDIT_PAGE_SIZE, events.data.nextCursor) ? <p className="muted small">{t.shortPage}</p> : null}
      {events.data && events.data.items.length === 0 ? <EmptyState title={t.noEvents} hint={t.noEventsHint} /> : null}
      {events.data && events.data.items.length > 0 ? <AuditTable events={events.data.items} /> : null}
      <Pager
        label={t.auditPager}
        page={paging.page}
        hasNext={Boolean(events.data?.nextCursor) && !events.isPlaceholderData}
        onPage={(page) => {
          if (page < paging.page) paging.previous();
          else if (events.data?.nextCursor) paging.next(events.data.nextCursor);
        }}
      />
    </section>
  );
}

function AuditFilterForm({ applied, onApply }: { applied: AuditFilters; onApply: (filters: AuditFilters) => void }) {
  const t = useMessages(adminMessages);
  const labels = useMessages(auditLabels);
  const [draft, setDraft] = useState<AuditFilters>(applied);
  const users = useUsers(undefined);
  const set = (field: keyof AuditFilters) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));
  const any = { value: '', label: t.anyValue };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-label={t.filters}>
      <div className="form-row">
        <SelectField
          label={t.action}
          value={draft.action}
          onValueChange={set('action')}
          options={[any, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: labels.action(action) }))]}
        />
        <SelectField
          label={t.resourceType}
          value={draft.resourceType}
          onValueChange={set('resourceType')}
          options={[any, ...RESOURCE_TYPES.map((type) => ({ value: type, label: labels.resourceType(type) }))]}
        />
        <SelectField
          label={t.actor}
          value={draft.actorId}
          onValueChange={set('actorId')}
          options={[
            any,
            { value: 'system', label: t.system },
            ...(users.data?.items ?? []).map((user) => ({ value: user.id, label: `${user.name} <${user.email}>` })),
          ]}
        />
        <TextField label={t.from} type="date" value={draft.from} onValueChange={set('from')} />
        <TextField label={t.to} type="date" value={draft.to} onValueChange={set('to')} />
      </div>
      <div className="toolbar">
        <button type="submit" className="button primary">
          {t.applyFilters}
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          {t.clearFilters}
        </button>
      </div>
    </form>
  );
}

function AuditTable({ events }: { events: AuditEvent[] }) {
  const t = useMessages(adminMessages);
  const labels = useMessages(auditLabels);
  const { locale } = useLocale();
  const actorName = (actor: AuditEvent['actor']) =>
    actor.type === 'system'
      ? t.system
      : actor.type === 'anonymous'
        ? t.anonymous
        : actor.type === 'api-key'
          ? `${t.apiKey}: ${actor.name ?? actor.id ?? ''}`
          : (actor.name ?? actor.id ?? '');
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.auditCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.when}</th>
            <th scope="col">{t.actor}</th>
            <th scope="col">{t.action}</th>
            <th scope="col">{t.resource}</th>
            <th scope="col">{t.changes}</th>
            <th scope="col">{t.sourceIp}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>{formatDateTime(event.occurredAt, locale)}</td>
              <td>{actorName(event.actor)}</td>
              <td>
                {labels.action(event.action)} <code className="muted small">{event.action}</code>
              </td>
              <td>
                {labels.resourceType(event.resource.type)}
                {event.resource.id ? <span className="muted small"> {event.resource.id.slice(0, 8)}</span> : null}
              </td>
              <td className="small">{changesText(event.changes)}</td>
              <td>{event.sourceIp ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { useState } from 'react';
import type { components } from '@backoffice/client';
import { useRefreshWebhookEndpoints, useWebhookEndpoints } from '../../api/webhooks';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { ListSection, ListStates } from '../../components/ListSection';
import { useCursorStack } from '../../components/useCursorStack';
import { DeliveryLog } from './WebhookDeliveries';
import {
  CreateEndpointDialog,
  DeleteEndpointDialog,
  EditEndpointDialog,
  RotateSecretDialog,
  WebhookSecretDialog,
  type ShownWebhookSecret,
} from './WebhookDialogs';
import { webhookMessages } from './webhook-messages';
import { useSendTest } from './webhook-sends';
import type { DeliveredType, DeliveryStatus, DisabledReason, WebhookEventType } from './webhooks';
import { EndpointTable, type EndpointAction } from './WebhookTable';

export type WebhookEndpoint = components['schemas']['UpdateWebhookEndpointResponse'];
/** An endpoint as its register and its rotation answer it: the view with, this once, its secret. */
export type EndpointWithSecret = components['schemas']['CreateWebhookEndpointResponse'];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ApiEventType = components['schemas']['CreateWebhookEndpointRequest']['events'][number];
type ApiDelivery = components['schemas']['ListWebhookDeliveriesResponse'][number];

/** Checked when compiled: the event types (subscribed and delivered), delivery statuses and disabled reasons the section knows are exactly the API's. */
export const TYPES_MATCH_THE_API: [
  Same<WebhookEventType, ApiEventType>,
  Same<DeliveredType, ApiDelivery['eventType']>,
  Same<DeliveryStatus, ApiDelivery['status']>,
  Same<DisabledReason, NonNullable<WebhookEndpoint['disabledReason']>>,
] = [true, true, true, true];

/**
 * The tenant's webhook endpoints (GET /webhook-endpoints, Link-header cursors, tenant
 * administrators): register one, edit it, rotate its secret, delete it, read its deliveries. A
 * secret is in the answer of a register or a rotation only: it is shown once in a dialog and
 * dropped when that closes (kept in no query or mutation cache).
 */
export function WebhooksSection() {
  const t = useMessages(webhookMessages);
  const paging = useCursorStack();
  const endpoints = useWebhookEndpoints(paging.cursor);
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<EndpointAction | undefined>();
  const [secret, setSecret] = useState<ShownWebhookSecret | undefined>();
  const [notice, setNotice] = useState('');
  const [logOf, setLogOf] = useState<WebhookEndpoint | undefined>();
  const test = useSendTest(setNotice);

  const refresh = useRefreshWebhookEndpoints();
  const done = (text: string) => {
    setPending(undefined);
    setNotice(text);
    void refresh();
  };
  const show = (endpoint: EndpointWithSecret, rotated: boolean) => {
    setSecret({ rotated, secret: endpoint.secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt });
    void refresh();
  };
  const act = (action: EndpointAction) => {
    setNotice('');
    if (action.kind === 'log') setLogOf(action.endpoint);
    else if (action.kind === 'test') test.mutate(action.endpoint);
    else setPending(action);
  };

  return (
    <ListSection
      id="webhooks-title"
      title={t.title}
      intro={t.intro}
      newLabel={t.newEndpoint}
      onNew={() => {
        setNotice('');
        setCreating(true);
      }}
      notice={notice}
    >
      {test.error ? <ProblemAlert error={test.error} /> : null}
      <ListStates query={endpoints} columns={5} empty={{ title: t.noEndpoints, hint: t.noEndpointsHint }} pager={t.pager} paging={paging}>
        {(items) => <EndpointTable endpoints={items} onAction={act} sending={test.isPending} />}
      </ListStates>
      {logOf ? <DeliveryLog key={logOf.id} endpoint={logOf} onClose={() => setLogOf(undefined)} /> : null}
      {creating ? (
        <CreateEndpointDialog
          onClose={() => setCreating(false)}
          onCreated={(endpoint) => {
            setCreating(false);
            paging.reset();
            show(endpoint, false);
          }}
        />
      ) : null}
      {pending?.kind === 'edit' ? (
        <EditEndpointDialog
          endpoint={pending.endpoint}
          onClose={() => setPending(undefined)}
          onSaved={(saved) => {
            if (logOf?.id === saved.id) setLogOf(saved);
            done(t.saved(saved.url));
          }}
        />
      ) : null}
      {pending?.kind === 'rotate' ? (
        <RotateSecretDialog
          endpoint={pending.endpoint}
          onClose={() => setPending(undefined)}
          onRotated={(rotated) => {
            setPending(undefined);
            show(rotated, true);
          }}
        />
      ) : null}
      {pending?.kind === 'delete' ? (
        <DeleteEndpointDialog
          endpoint={pending.endpoint}
          onClose={() => setPending(undefined)}
          onDeleted={() => {
            if (logOf?.id === pending.endpoint.id) setLogOf(undefined);
            done(t.deleted(pending.endpoint.url));
          }}
        />
      ) : null}
      {secret ? <WebhookSecretDialog shown={secret} onClose={() => setSecret(undefined)} /> : null}
    </ListSection>
  );
}

import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { webhookMessages } from './webhook-messages';
import { endpointState } from './webhooks';
import type { WebhookEndpoint } from './WebhooksSection';

/** What a row's buttons ask the section for. */
export type EndpointAction = { kind: 'edit' | 'rotate' | 'delete' | 'log' | 'test'; endpoint: WebhookEndpoint };

/** The rows' buttons: what they ask for, and whether a test is being sent (its buttons wait). */
type RowActions = { onAction: (action: EndpointAction) => void; sending: boolean };

export function EndpointTable({ endpoints, ...actions }: { endpoints: WebhookEndpoint[] } & RowActions) {
  const t = useMessages(webhookMessages);
  const c = useMessages(common);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.url}</th>
            <th scope="col">{t.events}</th>
            <th scope="col">{t.description}</th>
            <th scope="col">{t.state}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EndpointRow({ endpoint, onAction, sending }: { endpoint: WebhookEndpoint } & RowActions) {
  const t = useMessages(webhookMessages);
  const c = useMessages(common);
  const state = endpointState(endpoint);
  const button = (kind: EndpointAction['kind'], text: string, name: string, style = 'secondary') => (
    <button type="button" className={`button ${style}`} aria-label={name} disabled={kind === 'test' && sending} onClick={() => onAction({ kind, endpoint })}>
      {text}
    </button>
  );
  return (
    <tr>
      <td>
        <code className="webhook-url">{endpoint.url}</code>
      </td>
      <td>
        <ul className="webhook-event-list">
          {endpoint.events.map((type) => (
            <li key={type}>
              {t.eventName(type)} <code className="muted small">{type}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>{endpoint.description ?? <span className="muted">{t.noDescription}</span>}</td>
      <td>
        <span className={`badge ${state === 'enabled' ? 'ok' : state === 'manual' ? 'warn' : 'danger'}`}>{t.stateName(state)}</span>
      </td>
      <td>
        <div className="toolbar webhook-actions">
          {button('log', t.deliveries, t.showDeliveries(endpoint.url))}
          {button('test', t.sendTest, t.sendTestTo(endpoint.url))}
          {button('edit', c.edit, t.editEndpoint(endpoint.url))}
          {button('rotate', t.rotate, t.rotateEndpoint(endpoint.url))}
          {button('delete', c.delete, t.deleteEndpoint(endpoint.url), 'danger')}
        </div>
      </td>
    </tr>
  );
}

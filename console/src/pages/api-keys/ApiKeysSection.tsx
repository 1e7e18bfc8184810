import { useState } from 'react';
import type { components } from '@backoffice/client';
import { useApiKeys, useRefreshApiKeys } from '../../api/api-keys';
import { useCompanyPicker } from '../../api/companies';
import { formatDateTime } from '../../format/date';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { companyOf, isExpired, KEY_RESOURCES, previousSecretOf } from './api-keys';
import { CreateKeyDialog } from './ApiKeyCreateDialog';
import { RevokeKeyDialog, RollKeyDialog, SecretDialog, type ShownSecret } from './ApiKeyDialogs';
import { adminMessages } from '../settings/messages';
import { ListSection, ListStates } from '../../components/ListSection';
import { useCursorStack } from '../../components/useCursorStack';
import './api-keys.css';

export type ApiKey = components['schemas']['ListApiKeysResponse'][number];
/** A key as POST /api-keys and its roll answer it: the view with, this once, its text. */
export type ApiKeyWithSecret = components['schemas']['CreateApiKeyResponse'];

type Pending = { kind: 'roll' | 'revoke'; key: ApiKey };

/**
 * The tenant's API keys (GET /api-keys, Link-header cursors, tenant administrators): make one,
 * give one a new secret, revoke one. A key's text is in the answer of a create or a roll only:
 * it is shown once in a dialog and dropped when that closes (kept in no query or mutation cache).
 */
export function ApiKeysSection() {
  const t = useMessages(adminMessages);
  const paging = useCursorStack();
  const keys = useApiKeys(paging.cursor);
  const companies = useCompanyPicker();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending | undefined>();
  const [secret, setSecret] = useState<ShownSecret | undefined>();
  const [notice, setNotice] = useState('');

  const refresh = useRefreshApiKeys();
  const show = (key: ApiKeyWithSecret, rolled: boolean) => {
    setSecret({ title: rolled ? t.rolledKeyTitle(key.name) : t.createdKeyTitle(key.name), key: key.key });
    void refresh();
  };

  return (
    <ListSection
      id="api-keys-title"
      title={t.keysTitle}
      intro={t.keysIntro}
      newLabel={t.newKey}
      onNew={() => {
        setNotice('');
        setCreating(true);
      }}
      notice={notice}
    >
      <ListStates query={keys} columns={6} empty={{ title: t.noKeys, hint: t.noKeysHint }} pager={t.keysPager} paging={paging}>
        {(items) => <KeyTable keys={items} companies={companies.data?.items} onPending={setPending} />}
      </ListStates>
      <CreateKeyDialog
        open={creating}
        onOpenChange={setCreating}
        companies={companies.data?.items}
        onCreated={(key) => {
          setCreating(false);
          paging.reset();
          show(key, false);
        }}
      />
      {pending?.kind === 'roll' ? (
        <RollKeyDialog
          apiKey={pending.key}
          onClose={() => setPending(undefined)}
          onRolled={(key) => {
            setPending(undefined);
            show(key, true);
          }}
        />
      ) : null}
      {pending?.kind === 'revoke' ? (
        <RevokeKeyDialog
          apiKey={pending.key}
          onClose={() => setPending(undefined)}
          onRevoked={() => {
            setNotice(t.keyRevoked(pending.key.name));
            setPending(undefined);
            void refresh();
          }}
        />
      ) : null}
      {secret ? <SecretDialog secret={secret} onClose={() => setSecret(undefined)} /> : null}
    </ListSection>
  );
}

function KeyTable({
  keys,
  companies,
  onPending,
}: {
  keys: ApiKey[];
  companies: { id: string; name: string }[] | undefined;
  onPending: (pending: Pending) => void;
}) {
  const t = useMessages(adminMessages);
  const c = useMessages(common);
  const nowMs = Date.now();
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.keysCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.name}</th>
            <th scope="col">{t.keyPrefix}</th>
            <th scope="col">{t.keyScopes}</th>
            <th scope="col">{t.keyCompany}</th>
            <th scope="col">{t.keyCreated}</th>
            <th scope="col">{t.keyExpires}</th>
            <th scope="col">{t.keyLastUse}</th>
            <th scope="col">{t.keyPrevious}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} companies={companies} nowMs={nowMs} onPending={onPending} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({
  apiKey: key,
  companies,
  nowMs,
  onPending,
}: {
  apiKey: ApiKey;
  companies: { id: string; name: string }[] | undefined;
  nowMs: number;
  onPending: (pending: Pending) => void;
}) {
  const t = useMessages(adminMessages);
  const company = companyOf(key.companyId, companies);
  const previous = previousSecretOf(key, nowMs);
  return (
    <tr>
      <td>{key.name}</td>
      <td>
        <code className="api-key-prefix">{key.prefix}</code>
      </td>
      <td>
        <ul className="api-key-scopes">
          {KEY_RESOURCES.map((resource) => (
            <li key={resource} className={key.scopes[resource] === 'none' ? 'muted' : undefined}>
              {t.scopeLine(t.resourceName(resource), t.levelName(key.scopes[resource]))}
            </li>
          ))}
        </ul>
      </td>
      <td>{company === undefined ? t.allCompanies : company.known ? company.name : <code>{company.name}</code>}</td>
      <td>{t.createdLine(key.createdBy.name, formatDateTime(key.createdAt))}</td>
      <td>
        {key.expiresAt === null ? t.noExpiry : formatDateTime(key.expiresAt)}
        {isExpired(key.expiresAt, nowMs) ? <span className="badge danger api-key-badge">{t.expired}</span> : null}
      </td>
      <td>
        {key.lastUsedAt === null ? t.neverUsed : key.lastUsedIp ? t.usedFrom(formatDateTime(key.lastUsedAt), key.lastUsedIp) : formatDateTime(key.lastUsedAt)}
      </td>
      <td>
        {previous.kind === 'works' ? (
          <span className="badge warn">{t.previousWorks(formatDateTime(previous.until))}</span>
        ) : previous.kind === 'never' ? (
          t.neverRolled
        ) : (
          t.previousStopped
        )}
      </td>
      <td>
        <div className="toolbar api-key-actions">
          <button type="button" className="button secondary" aria-label={t.rollKey(key.name)} onClick={() => onPending({ kind: 'roll', key })}>
            {t.roll}
          </button>
          <button type="button" className="button danger" aria-label={t.revokeKey(key.name)} onClick={() => onPending({ kind: 'revoke', key })}>
            {t.revoke}
          </button>
        </div>
      </td>
    </tr>
  );
}

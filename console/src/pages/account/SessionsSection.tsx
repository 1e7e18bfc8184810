import { useState } from 'react';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../../api/account';
import { idempotencyKey } from '../../api/client';
import type { components } from '@backoffice/client';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { deviceOf } from './logic';
import { accountMessages } from './messages';

type Session = components['schemas']['Session'];

/** My live sessions (GET /auth/sessions), newest first: end one, or every one but this. */
export function SessionsSection() {
  const t = useMessages(accountMessages);
  const sessions = useSessions();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t.sessionsTitle}</h2>
      <p className="muted">{t.sessionsIntro}</p>
      {sessions.isPending ? <SkeletonRows rows={2} columns={4} /> : null}
      {sessions.error ? <ProblemAlert error={sessions.error} onRetry={() => void sessions.refetch()} /> : null}
      {sessions.data ? <SessionTable sessions={sessions.data} /> : null}
      {sessions.data ? <RevokeOthers others={others} /> : null}
    </section>
  );
}

function SessionTable({ sessions }: { sessions: Session[] }) {
  const t = useMessages(accountMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  const [revoking, setRevoking] = useState<Session | undefined>();
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.sessionsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.device}</th>
            <th scope="col">{t.ipAddress}</th>
            <th scope="col">{t.startedAt}</th>
            <th scope="col">{t.lastActiveAt}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => {
            const device = deviceOf(session.userAgent) || t.unknownDevice;
            return (
              <tr key={session.id} className={session.current ? 'highlight' : undefined}>
                <td>
                  {device} {session.current ? <span className="badge ok">{t.thisSession}</span> : null}
                </td>
                <td>{session.ipAddress}</td>
                <td>{formatDateTime(session.createdAt, locale)}</td>
                <td>{formatDateTime(session.lastActiveAt, locale)}</td>
                <td>
                  {session.current ? null : (
                    <button
                      type="button"
                      className="button secondary"
                      aria-label={t.revokeSession(`${device} ${session.ipAddress} ${formatDateTime(session.createdAt, locale)}`)}
                      onClick={() => setRevoking(session)}
                    >
                      {t.revoke}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {revoking ? <RevokeDialog session={revoking} onClose={() => setRevoking(undefined)} /> : null}
    </div>
  );
}

/** One session ended, with one Idempotency-Key for the open dialog. */
function RevokeDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const t = useMessages(accountMessages);
  const [key] = useState(idempotencyKey);
  const revoke = useRevokeSession(session.id, { onSuccess: onClose });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.revokeTitle}
      description={t.revokeText}
      confirmLabel={t.revoke}
      onConfirm={() => revoke.mutate(key)}
      busy={revoke.isPending}
    >
      {revoke.error ? <ProblemAlert error={revoke.error} /> : null}
    </ConfirmDialog>
  );
}

function RevokeOthers({ others }: { others: number }) {
  const t = useMessages(accountMessages);
  const [open, setOpen] = useState(false);
  const revoke = useRevokeOtherSessions({ onSuccess: () => setOpen(false) });
  return (
    <div className="toolbar">
      <button type="button" className="button danger" disabled={others === 0} onClick={() => setOpen(true)}>
        {t.revokeOthers}
      </button>
      <span role="status">{revoke.data ? t.revokedOthers(revoke.data.revoked) : others === 0 ? t.noOtherSessions : ''}</span>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t.revokeOthersTitle}
        description={t.revokeOthersText}
        confirmLabel={t.revokeOthers}
        onConfirm={() => revoke.mutate()}
        busy={revoke.isPending}
      >
        {revoke.error ? <ProblemAlert error={revoke.error} /> : null}
      </ConfirmDialog>
    </div>
  );
}

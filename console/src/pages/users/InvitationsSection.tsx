import { useState, type FormEvent } from 'react';
import type { components } from '@backoffice/client';
import { idempotencyKey } from '../../api/client';
import { useInvitations, useInvite, useWithdrawInvitation } from '../../api/invitations';
import { fieldErrors } from '../../api/problems';
import { ConfirmDialog } from '../../components/Dialogs';
import { TextField } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { adminMessages } from '../settings/messages';
import { useCursorStack } from '../../components/useCursorStack';

type Invitation = components['schemas']['ListInvitationsResponse'][number];

/** The pending invitations (GET /auth/invitations, Link-header cursors): send one, withdraw one. */
export function InvitationsSection() {
  const t = useMessages(adminMessages);
  const paging = useCursorStack();
  const invitations = useInvitations(paging.cursor);
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t.invitationsTitle}</h2>
      <InviteForm />
      {invitations.isPending ? <SkeletonRows rows={2} columns={4} /> : null}
      {invitations.error ? <ProblemAlert error={invitations.error} onRetry={() => void invitations.refetch()} /> : null}
      {invitations.data && invitations.data.items.length === 0 ? <EmptyState title={t.noInvitations} hint={t.noInvitationsHint} /> : null}
      {invitations.data && invitations.data.items.length > 0 ? <InvitationTable invitations={invitations.data.items} /> : null}
      <Pager
        label={t.invitationsPager}
        page={paging.page}
        hasNext={Boolean(invitations.data?.nextCursor)}
        onPage={(page) => {
          if (page < paging.page) paging.previous();
          else if (invitations.data?.nextCursor) paging.next(invitations.data.nextCursor);
        }}
      />
    </section>
  );
}

/** POST /auth/invitations with one Idempotency-Key while the form is open, renewed after a success. */
function InviteForm() {
  const t = useMessages(adminMessages);
  const [email, setEmail] = useState('');
  const [key, setKey] = useState(idempotencyKey);
  const invite = useInvite({
    onSuccess: () => {
      setEmail('');
      setKey(idempotencyKey());
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email: email.trim(), key });
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.invite}>
      {invite.isSuccess ? (
        <div className="alert alert-ok" role="status">
          <p>{t.invited(invite.data.email)}</p>
        </div>
      ) : null}
      {invite.error ? <ProblemAlert error={invite.error} /> : null}
      <TextField
        label={t.email}
        type="email"
        value={email}
        onValueChange={(value) => {
          setEmail(value);
          // Another address is another invitation: a new key, so the server does not answer the old one.
          if (invite.isError) setKey(idempotencyKey());
        }}
        autoComplete="off"
        required
        hint={t.inviteHint}
        error={fieldErrors(invite.error).email}
      />
      <button type="submit" className="button primary" disabled={invite.isPending || !email.trim()}>
        {t.invite}
      </button>
    </form>
  );
}

function InvitationTable({ invitations }: { invitations: Invitation[] }) {
  const t = useMessages(adminMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  const [withdrawing, setWithdrawing] = useState<Invitation | undefined>();
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.invitationsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.email}</th>
            <th scope="col">{t.role}</th>
            <th scope="col">{t.sentAt}</th>
            <th scope="col">{t.expiresAt}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <td>{invitation.email}</td>
              <td>{invitation.role === 'ADMIN' ? t.roleAdmin : t.roleMember}</td>
              <td>{formatDateTime(invitation.createdAt, locale)}</td>
              <td>{formatDateTime(invitation.expiresAt, locale)}</td>
              <td>
                <button
                  type="button"
                  className="button secondary"
                  aria-label={t.withdrawInvitation(invitation.email)}
                  onClick={() => setWithdrawing(invitation)}
                >
                  {t.withdraw}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {withdrawing ? <WithdrawDialog invitation={withdrawing} onClose={() => setWithdrawing(undefined)} /> : null}
    </div>
  );
}

function WithdrawDialog({ invitation, onClose }: { invitation: Invitation; onClose: () => void }) {
  const t = useMessages(adminMessages);
  const withdraw = useWithdrawInvitation(invitation, { onSuccess: onClose });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.withdrawTitle(invitation.email)}
      description={t.withdrawText}
      confirmLabel={t.withdraw}
      onConfirm={() => withdraw.mutate()}
      busy={withdraw.isPending}
    >
      {withdraw.error ? <ProblemAlert error={withdraw.error} /> : null}
    </ConfirmDialog>
  );
}

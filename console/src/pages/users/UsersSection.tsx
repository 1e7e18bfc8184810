import { useState } from 'react';
import type { components } from '@backoffice/client';
import { useChangeRole, useUserAction, useUsers, type UserAction } from '../../api/users';
import { ConfirmDialog } from '../../components/Dialogs';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { adminMessages } from '../settings/messages';
import { useCursorStack } from '../../components/useCursorStack';

export type User = components['schemas']['UpdateUserResponse'];
type Role = User['role'];

/** The tenant's users: change a role, remove one (confirmed), reset a member's second factor (confirmed). */
export function UsersSection({ meId }: { meId: string | undefined }) {
  const t = useMessages(adminMessages);
  const paging = useCursorStack();
  const users = useUsers(paging.cursor);
  const [notice, setNotice] = useState('');
  return (
    <section className="card" aria-labelledby="users-title">
      <h2 id="users-title">{t.usersTitle}</h2>
      <p role="status" className="muted">
        {notice}
      </p>
      {users.isPending ? <SkeletonRows rows={3} columns={5} /> : null}
      {users.error ? <ProblemAlert error={users.error} onRetry={() => void users.refetch()} /> : null}
      {users.data && users.data.items.length === 0 ? <EmptyState title={t.noUsers} hint={t.noUsersHint} /> : null}
      {users.data && users.data.items.length > 0 ? <UserTable users={users.data.items} meId={meId} onNotice={setNotice} /> : null}
      <Pager
        label={t.usersPager}
        page={paging.page}
        hasNext={Boolean(users.data?.nextCursor)}
        onPage={(page) => {
          if (page < paging.page) paging.previous();
          else if (users.data?.nextCursor) paging.next(users.data.nextCursor);
        }}
      />
    </section>
  );
}

type Pending = { kind: UserAction; user: User };

function UserTable({ users, meId, onNotice }: { users: User[]; meId: string | undefined; onNotice: (text: string) => void }) {
  const t = useMessages(adminMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  const [pending, setPending] = useState<Pending | undefined>();
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.usersCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.name}</th>
            <th scope="col">{t.email}</th>
            <th scope="col">{t.role}</th>
            <th scope="col">{t.lastLogin}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} className={user.id === meId ? 'highlight' : undefined}>
              <td>
                {user.name}
                {user.id === meId ? <span className="muted"> ({t.you})</span> : null}
              </td>
              <td>{user.email}</td>
              <td>
                <RoleSelect user={user} onChanged={() => onNotice(t.roleChanged(user.name))} />
              </td>
              <td>{user.lastLoginAt ? formatDateTime(user.lastLoginAt, locale) : t.never}</td>
              <td>
                {user.id === meId ? null : (
                  <div className="toolbar">
                    <button
                      type="button"
                      className="button secondary"
                      aria-label={t.resetMfaOf(user.name)}
                      onClick={() => setPending({ kind: 'resetMfa', user })}
                    >
                      {t.resetMfa}
                    </button>
                    <button type="button" className="button danger" aria-label={t.removeUser(user.name)} onClick={() => setPending({ kind: 'remove', user })}>
                      {t.remove}
                    </button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {pending ? <UserDialog pending={pending} onClose={() => setPending(undefined)} onDone={onNotice} /> : null}
    </div>
  );
}

function RoleSelect({ user, onChanged }: { user: User; onChanged: () => void }) {
  const t = useMessages(adminMessages);
  const change = useChangeRole(user.id, { onSuccess: onChanged });
  return (
    <>
      <select
        aria-label={t.roleOf(user.name)}
        value={change.isPending && change.variables ? change.variables : user.role}
        disabled={change.isPending}
        onChange={(event) => change.mutate(event.target.value as Role)}
      >
        <option value="ADMIN">{t.roleAdmin}</option>
        <option value="MEMBER">{t.roleMember}</option>
      </select>
      {change.error ? <ProblemAlert error={change.error} /> : null}
    </>
  );
}

function UserDialog({ pending: { kind, user }, onClose, onDone }: { pending: Pending; onClose: () => void; onDone: (text: string) => void }) {
  const t = useMessages(adminMessages);
  const act = useUserAction(user.id, kind, {
    onSuccess: () => {
      onClose();
      if (kind === 'resetMfa') onDone(t.resetMfaDone(user.name));
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={kind === 'remove' ? t.removeTitle(user.name) : t.resetMfaTitle(user.name)}
      description={kind === 'remove' ? t.removeText : t.resetMfaText}
      confirmLabel={kind === 'remove' ? t.remove : t.resetMfa}
      onConfirm={() => act.mutate()}
      busy={act.isPending}
    >
      {act.error ? <ProblemAlert error={act.error} /> : null}
    </ConfirmDialog>
  );
}

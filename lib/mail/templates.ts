import type { MailMessage } from './mailer';

/**
 * The service's e-mails. Plain text is the source; the HTML part is the same text with the
 * link made clickable, escaped.
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

function message(to: string, subject: string, paragraphs: string[], link?: string): MailMessage {
  const text = [...paragraphs, ...(link ? [link] : [])].join('\n\n');
  const html = [
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`] : []),
  ].join('\n');
  return { to, subject, text, html };
}

export function passwordResetMail(to: string, link: string, minutes: number): MailMessage {
  return message(
    to,
    'Reset your password',
    [
      `Someone asked to reset the password of this account. The link below works once, for ${minutes} minutes.`,
      'If it was not you, ignore this e-mail: your password stays as it is.',
    ],
    link,
  );
}

export function passwordChangedMail(to: string): MailMessage {
  return message(to, 'Your password was changed', [
    'The password of your account was just changed, and every session was signed out.',
    'If you did not do this, reset your password at once and contact your administrator.',
  ]);
}

export function secondFactorChangedMail(to: string, enabled: boolean): MailMessage {
  return message(to, enabled ? 'A second factor was turned on for your account' : 'The second factor of your account was turned off', [
    enabled
      ? 'Signing in to your account now takes a code from your authenticator app (or a recovery code) after the password. Every other session was signed out.'
      : 'Signing in to your account now takes the password alone. Every other session was signed out.',
    'If you did not do this, reset your password at once and contact your administrator.',
  ]);
}

/** An invitation with its registration link; `administrator`: the tenant's first account, which administers it. */
export function secondFactorResetMail(to: string): MailMessage {
  return message(to, 'The second factor of your account was reset', [
    'An administrator reset the second factor of your account: signing in now takes the password alone until you enrol a new one. Every session was signed out.',
    'If you did not ask for this, contact your administrator and change your password.',
  ]);
}

export function invitationMail(to: string, tenantId: string, link: string, days: number, administrator = false): MailMessage {
  return message(
    to,
    'You are invited to the back-office',
    [
      administrator
        ? `A back-office account (tenant ${tenantId}) was opened with this e-mail address as its administrator. Confirm the address and choose your password through the link below, within ${days} days. The link works once; do not share it.`
        : `You were invited to join a back-office account (tenant ${tenantId}). Register with this e-mail address through the link below, within ${days} days. The link works once; do not share it.`,
      'If you did not expect this, ignore this e-mail.',
    ],
    link,
  );
}

/**
 * Sent instead of an invitation when the invited address already has an account: the
 * inviting administrator gets the same answer either way, and only the owner of the address
 * learns that it is taken.
 */
export function invitationToExistingAccountMail(to: string, tenantId: string, administrator = false): MailMessage {
  return message(to, 'You are invited to the back-office', [
    administrator
      ? `This e-mail address was given as the administrator of a new back-office account (tenant ${tenantId}), but the address already has an account, and one address can hold only one account.`
      : `An administrator invited this e-mail address to join a back-office account (tenant ${tenantId}), but the address already has an account, and one address can hold only one account.`,
    administrator
      ? 'Nothing changed on your account and you need to do nothing. If you opened that account, sign it up again with another address.'
      : 'Nothing changed on your account and you need to do nothing. To join that tenant, ask its administrator to invite another address.',
  ]);
}

/** To every administrator of a tenant when one of them makes or rolls an API key: a key is a standing way in, so each of them hears of it. */
export function apiKeyMail(
  to: string,
  change: { action: 'created' | 'rolled'; keyName: string; prefix: string; by: string; previousWorksUntil?: string },
): MailMessage {
  const what =
    change.action === 'created'
      ? `A new API key, "${change.keyName}" (${change.prefix}…), was created by ${change.by}.`
      : `The API key "${change.keyName}" was given a new secret (${change.prefix}…) by ${change.by}.`;
  return message(to, change.action === 'created' ? 'A new API key was created' : 'An API key was rolled', [
    what,
    ...(change.previousWorksUntil ? [`The secret it replaced keeps working until ${change.previousWorksUntil} (UTC).`] : []),
    'API keys let the systems that feed the back-office (a point of sale, an online store, an ERP) call it without a person signing in. If you did not expect this, revoke the key and review the audit trail.',
  ]);
}

/** To every administrator of a tenant when the delivery disables one of its webhook endpoints: events stop going there until someone enables it again. */
export function webhookDisabledMail(to: string, endpoint: { url: string; reason: 'gone' | 'failing'; failingSince: string | null }): MailMessage {
  const why =
    endpoint.reason === 'gone'
      ? `It answered 410 Gone, which says it wants no more events.`
      : `Every delivery to it has failed since ${endpoint.failingSince ?? 'three days ago'} (UTC), for three days without a success.`;
  return message(to, 'A webhook endpoint was disabled', [
    `The webhook endpoint ${endpoint.url} was disabled. ${why}`,
    'No more events are sent to it. Its delivery log, on the administration page, shows what it answered. Once the receiver works, enable the endpoint again; the events it missed are listed by GET /events for 30 days.',
  ]);
}

import type { Count } from '../../api/counts';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { countMessages } from './messages';

/**
 * What became of a count no longer open: closing (its progress, read again until it ends),
 * closed (when, and what was done to the products not counted) or cancelled.
 */
export function CountOutcome({ count }: { count: Count }) {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  let text: string;
  let tone: string;
  if (count.status === 'CLOSING') {
    text = t.closing(count.applied);
    tone = 'alert-warn';
  } else if (count.status === 'CANCELLED') {
    text = t.cancelledOn(formatDateTime(count.cancelledAt ?? count.createdAt, locale));
    tone = 'alert-warn';
  } else {
    text = [t.closedOn(formatDateTime(count.closedAt ?? count.createdAt, locale)), count.uncounted ? t.uncountedWas(count.uncounted) : '']
      .filter(Boolean)
      .join(' ');
    tone = 'alert-ok';
  }
  return (
    <p role="status" className={`alert ${tone}`}>
      {text}
    </p>
  );
}

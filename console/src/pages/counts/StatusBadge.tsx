import type { CountStatus } from '../../api/counts';
import { useMessages } from '../../i18n';
import { countMessages } from './messages';

const TONE: Record<CountStatus, string> = { OPEN: 'warn', CLOSING: 'warn', CLOSED: 'ok', CANCELLED: '' };

/** A count's status in words, in a badge. */
export function StatusBadge({ status }: { status: CountStatus }) {
  const t = useMessages(countMessages);
  return <span className={`badge ${TONE[status]}`.trim()}>{t.statusNames(status)}</span>;
}

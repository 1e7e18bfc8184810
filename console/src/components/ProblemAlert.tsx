import { failureOf } from '../api/problems';
import { common } from '../i18n/common';
import { useMessages } from '../i18n';

/**
 * A failed request, said plainly: the problem document's `detail` (the API writes it for
 * people), the wait of a 429 from its Retry-After, why a 403 was refused, or that the browser
 * is offline. `role="alert"` so a screen reader announces it.
 */
export function ProblemAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useMessages(common);
  const failure = failureOf(error);
  let text: string;
  let extra: string | undefined;
  if (failure.kind === 'offline') text = t.offline;
  else if (failure.kind === 'unknown') text = t.unexpected;
  else if (failure.status === 429) {
    text = t.tooManyRequests(failure.retryAfter);
    extra = failure.detail;
  } else if (failure.status === 403) {
    text = failure.detail || t.forbidden;
  } else {
    text = failure.detail || failure.title;
  }
  return (
    <div className="alert alert-error" role="alert">
      <p>{text}</p>
      {extra && extra !== text ? <p className="muted">{extra}</p> : null}
      {failure.kind === 'problem' && failure.requestId ? <p className="muted small">{t.requestId(failure.requestId)}</p> : null}
      {onRetry ? (
        <button type="button" className="button secondary" onClick={onRetry}>
          {t.tryAgain}
        </button>
      ) : null}
    </div>
  );
}

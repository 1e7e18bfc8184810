/**
 * Said when a link changed since it was read (412): what happened, what reloading does, and the
 * reload button (disabled while it reads).
 */
export function StaleAlert({
  text,
  hint,
  reloadLabel,
  onReload,
  reloading,
}: {
  text: string;
  hint?: string;
  reloadLabel: string;
  onReload: () => void;
  reloading: boolean;
}) {
  return (
    <div className="alert alert-error" role="alert">
      <p>{text}</p>
      {hint ? <p className="muted">{hint}</p> : null}
      <button type="button" className="button secondary" onClick={onReload} disabled={reloading}>
        {reloadLabel}
      </button>
    </div>
  );
}

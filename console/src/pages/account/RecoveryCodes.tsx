import { useMessages } from '../../i18n';
import { accountMessages } from './messages';

/** The recovery codes, shown once: the instruction first, the codes as a list, and a button that hides them. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useMessages(accountMessages);
  return (
    <div>
      <div className="alert alert-ok" role="status">
        <p>{t.mfaEnabled}</p>
      </div>
      <h3>{t.recoveryTitle}</h3>
      <div className="alert alert-warn">
        <p>{t.recoveryInstruction}</p>
      </div>
      <ul className="codes" aria-label={t.recoveryCaption}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button primary" onClick={onDone}>
        {t.recoveryStored}
      </button>
    </div>
  );
}

import { useState, type FormEvent } from 'react';
import { useConfirmTotp, useDisableTotp, useStartTotp } from '../../api/account';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { disableBody, groupSecret, svgDataUrl } from './logic';
import { accountMessages } from './messages';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * The second factor (TOTP). The API says nowhere whether it is on (GET /auth/me does not), so
 * both ways are offered: turning it on (the password → the QR code and the key → a code → the
 * recovery codes, shown this once) answers 409 with the API's reason when it is already on,
 * and turning it off takes a code or a recovery code.
 */
export function SecondFactorSection() {
  const t = useMessages(accountMessages);
  return (
    <section className="card" aria-labelledby="mfa-title">
      <h2 id="mfa-title">{t.mfaTitle}</h2>
      <p className="muted">{t.mfaIntro}</p>
      <Enrolment />
      <TurnOff />
    </section>
  );
}

type Step = { kind: 'password' } | { kind: 'scan'; secret: string; qr: string } | { kind: 'codes'; codes: string[] };

function Enrolment() {
  const t = useMessages(accountMessages);
  const [step, setStep] = useState<Step>({ kind: 'password' });
  if (step.kind === 'scan')
    return (
      <ScanStep secret={step.secret} qr={step.qr} onConfirmed={(codes) => setStep({ kind: 'codes', codes })} onCancel={() => setStep({ kind: 'password' })} />
    );
  if (step.kind === 'codes') return <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'password' })} />;
  return (
    <div>
      <h3>{t.mfaStart}</h3>
      <PasswordStep onStarted={(secret, qrSvg) => setStep({ kind: 'scan', secret, qr: svgDataUrl(qrSvg) })} />
    </div>
  );
}

function PasswordStep({ onStarted }: { onStarted: (secret: string, qrSvg: string) => void }) {
  const t = useMessages(accountMessages);
  const [password, setPassword] = useState('');
  const start = useStartTotp({ onSuccess: (answer) => onStarted(answer.secret, answer.qrSvg) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate(password);
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.mfaStart}>
      <p>{t.mfaStartHint}</p>
      {start.error ? <ProblemAlert error={start.error} /> : null}
      <TextField
        label={t.currentPassword}
        type="password"
        value={password}
        onValueChange={setPassword}
        autoComplete="current-password"
        required
        error={fieldErrors(start.error).password}
      />
      <button type="submit" className="button primary" disabled={start.isPending}>
        {t.mfaStart}
      </button>
    </form>
  );
}

function ScanStep({ secret, qr, onConfirmed, onCancel }: { secret: string; qr: string; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const t = useMessages(accountMessages);
  const [code, setCode] = useState('');
  const confirm = useConfirmTotp({ onSuccess: (answer) => onConfirmed(answer.recoveryCodes) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.replace(/\s/g, ''));
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.mfaConfirm}>
      <h3>{t.mfaStart}</h3>
      <p>{t.mfaScan}</p>
      <img className="qr" src={qr} alt={t.qrAlt} width={200} height={200} />
      <p>
        {t.secret}: <code>{groupSecret(secret)}</code>
      </p>
      {confirm.error ? <ProblemAlert error={confirm.error} /> : null}
      <TextField
        label={t.mfaCode}
        value={code}
        onValueChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        hint={t.mfaCodeHint}
        error={fieldErrors(confirm.error).code}
      />
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={confirm.isPending}>
          {t.mfaConfirm}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {t.mfaCancel}
        </button>
      </div>
    </form>
  );
}

function TurnOff() {
  const t = useMessages(accountMessages);
  const [input, setInput] = useState('');
  const disable = useDisableTotp({ onSuccess: () => setInput('') });
  const fields = fieldErrors(disable.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(disableBody(input));
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.mfaDisableTitle}>
      <h3>{t.mfaDisableTitle}</h3>
      <p>{t.mfaDisableHint}</p>
      {disable.isSuccess ? (
        <div className="alert alert-ok" role="status">
          <p>{t.mfaDisabled}</p>
        </div>
      ) : null}
      {disable.error ? <ProblemAlert error={disable.error} /> : null}
      <TextField
        label={t.mfaDisableCode}
        value={input}
        onValueChange={setInput}
        autoComplete="one-time-code"
        required
        error={fields.code ?? fields.recoveryCode}
      />
      <button type="submit" className="button danger" disabled={disable.isPending || !input.trim()}>
        {t.mfaDisable}
      </button>
    </form>
  );
}

import { useId, type ReactNode } from 'react';
import './fieldset.css';

/**
 * A group of controls under a legend, with its hint and its error (the form's own or the
 * server's message for the group's field), described to screen readers as a Field's are.
 */
export function Fieldset({ legend, hint, error, children }: { legend: string; hint?: string | undefined; error?: string | undefined; children: ReactNode }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="choice-fieldset" aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

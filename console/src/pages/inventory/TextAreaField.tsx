import { useId, type TextareaHTMLAttributes } from 'react';

/**
 * A labelled multi-line field with its hint and error, the same frame as components/Field's
 * TextField (a product's description keeps its line breaks, which an input would drop).
 */
export function TextAreaField({
  label,
  error,
  hint,
  value,
  onValueChange,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value' | 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  value: string;
  onValueChange: (value: string) => void;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...textarea}
      />
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

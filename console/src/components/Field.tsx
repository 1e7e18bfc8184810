import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldFrame {
  label: string;
  /** The server's (or the form's own) message for this field; sets aria-invalid. */
  error?: string | undefined;
  hint?: string | undefined;
}

function Frame({ id, label, error, hint, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
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

const describedBy = (id: string, { error, hint }: FieldFrame) => [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** Formats what is typed (masks.ts); the field shows the formatted text. */
  mask?: (input: string) => string;
};

/** A labelled input with its hint and error; every input of the console is one. */
export function TextField({ label, error, hint, value, onValueChange, mask, id: givenId, ...input }: FieldFrame & InputProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        value={value}
        onChange={(event) => onValueChange(mask ? mask(event.target.value) : event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...input}
      />
    </Frame>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/** A labelled multi-line field (a product's description keeps its line breaks, which an input would drop). */
export function TextAreaField({ label, error, hint, value, onValueChange, id: givenId, ...textarea }: FieldFrame & TextAreaProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...textarea}
      />
    </Frame>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
};

export function SelectField({ label, error, hint, value, onValueChange, options, id: givenId, ...select }: FieldFrame & SelectProps) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { label, error, hint })}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function CheckboxField({
  label,
  checked,
  onCheckedChange,
  id: givenId,
}: {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  id?: string;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  return (
    <div className="field field-checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onCheckedChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

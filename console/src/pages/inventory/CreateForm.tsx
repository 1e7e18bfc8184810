import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { idempotencyKey, type IdempotencyHeader } from '../../api/client';
import { useCreateInInventory } from '../../api/inventory';
import { ProblemAlert } from '../../components/ProblemAlert';

/**
 * A small create form (a warehouse, a product): one Idempotency-Key while it is open, kept
 * across failures and double clicks, renewed after success; the lists refreshed after.
 */
export function CreateForm<T>({
  title,
  submitLabel,
  create,
  done,
  canSubmit,
  children,
  onCreated,
}: {
  title: string;
  submitLabel: string;
  create: (key: IdempotencyHeader) => Promise<T>;
  done: (created: T) => string;
  canSubmit: boolean;
  children: (error: unknown) => ReactNode;
  onCreated: (created: T) => void;
}) {
  const key = useRef(idempotencyKey());
  const [message, setMessage] = useState<string | undefined>();
  const mutation = useCreateInInventory(() => create(key.current), {
    onSuccess: (created) => {
      key.current = idempotencyKey();
      setMessage(done(created));
      onCreated(created);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending || !canSubmit) return;
    setMessage(undefined);
    mutation.mutate();
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={title}>
      {mutation.error ? <ProblemAlert error={mutation.error} /> : null}
      <div className="form-row">{children(mutation.error)}</div>
      <button type="submit" className="button primary" disabled={mutation.isPending}>
        {submitLabel}
      </button>
      <p role="status" className={message ? 'alert alert-ok' : 'visually-hidden'}>
        {message ?? ''}
      </p>
    </form>
  );
}

// @vitest-environment happy-dom
import { ProblemError } from '@backoffice/client';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextAreaField, TextField } from '../src/components/Field';
import { ProblemAlert } from '../src/components/ProblemAlert';
import { maskDocument } from '../src/format/masks';
import { I18nProvider, type Locale } from '../src/i18n';

afterEach(cleanup);

const problem = (status: number, detail: string, headers: Record<string, string> = {}, errors?: { field: string; message: string }[]) =>
  new ProblemError(
    { type: 'https://problems.backoffice.dev/x', title: 'Title', status, detail, ...(errors ? { errors } : {}), requestId: 'req-1' },
    new Response(null, { status, headers }),
  );

const inLanguage = (locale: Locale, element: React.ReactNode) => render(<I18nProvider locale={locale}>{element}</I18nProvider>);

describe('ProblemAlert', () => {
  it("says the problem's detail, with the request id, as an alert", () => {
    inLanguage('en', <ProblemAlert error={problem(409, 'A supplier with this document already exists')} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('A supplier with this document already existsRequest id: req-1');
  });

  it('gives the wait of a 429 from its Retry-After, in the reader’s language', () => {
    inLanguage('pt-BR', <ProblemAlert error={problem(429, 'Too many searches', { 'Retry-After': '42' })} />);
    expect(screen.getByRole('alert').textContent).toContain('Muitas solicitações. Tente de novo em 42 s.');
    cleanup();
    inLanguage('en', <ProblemAlert error={problem(429, 'Too many searches', { 'Retry-After': '42' })} />);
    expect(screen.getByRole('alert').textContent).toContain('Too many requests. Try again in 42 s.');
  });

  it('says why a 403 was refused', () => {
    inLanguage('en', <ProblemAlert error={problem(403, 'Only a tenant administrator may list users')} />);
    expect(screen.getByRole('alert').textContent).toContain('Only a tenant administrator may list users');
  });

  it('says the browser is offline when the request never left', () => {
    inLanguage('pt-BR', <ProblemAlert error={new TypeError('Failed to fetch')} />);
    expect(screen.getByRole('alert').textContent).toBe('Você está sem conexão. As alterações não foram enviadas; tente de novo quando a conexão voltar.');
  });
});

function DocumentField({ error }: { error?: string }) {
  const [value, setValue] = useState('');
  return <TextField label="CPF/CNPJ" value={value} onValueChange={setValue} mask={maskDocument} error={error} />;
}

describe('TextField', () => {
  it('formats as typed, and names its error for assistive technology', () => {
    render(<DocumentField error="document: check digits do not match" />);
    const input = screen.getByLabelText<HTMLInputElement>('CPF/CNPJ');
    fireEvent.change(input, { target: { value: '12abc34501de35' } });
    expect(input.value).toBe('12.ABC.345/01DE-35');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described)?.textContent).toBe('document: check digits do not match');
  });
});

function NotesField({ error }: { error?: string }) {
  const [value, setValue] = useState('');
  return <TextAreaField label="Description" value={value} onValueChange={setValue} hint="Up to 2,000 characters." error={error} />;
}

describe('TextAreaField', () => {
  it('keeps line breaks, and is described by its hint and error as every field is', () => {
    render(<NotesField error="description: too long" />);
    const area = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Description' });
    expect(area.tagName).toBe('TEXTAREA');
    fireEvent.change(area, { target: { value: 'Medium roast.\nPadded pack.' } });
    expect(area.value).toBe('Medium roast.\nPadded pack.');
    expect(area.getAttribute('aria-invalid')).toBe('true');
    const described = (area.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['Up to 2,000 characters.', 'description: too long']);
  });
});

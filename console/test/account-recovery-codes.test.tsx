// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../src/i18n';
import { accountMessages } from '../src/pages/account/messages';
import { RecoveryCodes } from '../src/pages/account/RecoveryCodes';

afterEach(cleanup);

const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}`);

describe('the recovery codes, shown once', () => {
  it.each(['pt-BR', 'en'] as const)('lists every code after the instruction to store them (%s)', (locale) => {
    const t = accountMessages[locale];
    render(
      <I18nProvider locale={locale}>
        <RecoveryCodes codes={CODES} onDone={() => undefined} />
      </I18nProvider>,
    );
    const list = screen.getByRole('list', { name: t.recoveryCaption });
    expect(Array.from(list.querySelectorAll('li'), (item) => item.textContent)).toEqual(CODES);
    const instruction = screen.getByText(t.recoveryInstruction);
    // The instruction comes first in the reading order.
    expect(instruction.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(t.mfaEnabled);
  });

  it('goes away only when the user says the codes are stored', () => {
    const onDone = vi.fn();
    render(
      <I18nProvider locale="en">
        <RecoveryCodes codes={CODES} onDone={onDone} />
      </I18nProvider>,
    );
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: accountMessages.en.recoveryStored }));
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});

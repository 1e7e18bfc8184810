import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { preferredLocale, type Locale, type Messages, type Text } from './messages';

export { defineMessages, LOCALES, preferredLocale, type Locale, type Messages } from './messages';

/**
 * The console's two languages: Portuguese (Brazil) by default, English when the browser
 * prefers it, and whatever the user picked with the switch (kept in localStorage).
 *
 * Each area keeps its own texts beside its pages (`messages.ts`, made with defineMessages), so
 * a page and its words change together; both languages must have every key (the type says so).
 */
const STORAGE_KEY = 'backoffice.locale';

function initialLocale(): Locale {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'pt-BR' || stored === 'en') return stored;
  } catch {
    // Storage refused (a private window's policy): fall back to the browser's preference.
  }
  return preferredLocale(typeof navigator === 'undefined' ? [] : navigator.languages);
}

interface I18n {
  locale: Locale;
  setLocale: (locale: Locale) => void;
}

const I18nContext = createContext<I18n>({ locale: 'pt-BR', setLocale: () => undefined });

export function I18nProvider({ children, locale: fixed }: { children: ReactNode; locale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => fixed ?? initialLocale());
  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not kept across visits; the choice still holds for this page.
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useLocale = () => useContext(I18nContext);

/** The current language's texts of an area. */
export function useMessages<T extends Record<string, Text>>(messages: Messages<T>): T {
  return messages[useContext(I18nContext).locale];
}

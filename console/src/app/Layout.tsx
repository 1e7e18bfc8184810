import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { authKeys, useSignOut } from '../api/auth';
import { LOCALES, useLocale, useMessages, type Locale } from '../i18n';
import { common } from '../i18n/common';
import { NAVIGATION } from './routes';

const LANGUAGE_NAMES: Record<Locale, string> = { 'pt-BR': 'Português', en: 'English' };

/** Switches the language; each option is named in its own language. */
export function LanguageSwitch() {
  const t = useMessages(common);
  const { locale, setLocale } = useLocale();
  return (
    <label className="language">
      <span className="visually-hidden">{t.language}</span>
      <select aria-label={t.language} value={locale} onChange={(event) => setLocale(event.target.value as Locale)}>
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

export function OfflineBanner() {
  const t = useMessages(common);
  return useOnline() ? null : (
    <div className="banner" role="status">
      {t.offlineBanner}
    </div>
  );
}

/** The signed-in frame: navigation, the user, the language switch and Sign out on every page. */
export function Layout({ userName, children }: { userName: string; children: ReactNode }) {
  const t = useMessages(common);
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const signOut = useSignOut(() => {
    queryClient.clear();
    queryClient.setQueryData(authKeys.me, null);
    navigate('/sign-in', { replace: true });
  });
  const current = (path: string) => (path === '/' ? location === '/' : location === path || location.startsWith(`${path}/`));
  return (
    <>
      <a className="skip" href="#main">
        {t.skipToContent}
      </a>
      <header className="topbar">
        <span className="brand">{t.appName}</span>
        <nav aria-label={t.mainNavigation}>
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.path}>
                <Link href={item.path} aria-current={current(item.path) ? 'page' : undefined}>
                  {t[item.label]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          <span className="muted small">{userName ? t.signedInAs(userName) : null}</span>
          <LanguageSwitch />
          <button type="button" className="button secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            {t.signOut}
          </button>
        </div>
      </header>
      <OfflineBanner />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The frame of the pages before sign-in: the product's name, the language switch, the form. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const t = useMessages(common);
  return (
    <>
      <header className="topbar public">
        <span className="brand">{t.appName}</span>
        <div className="topbar-end">
          <LanguageSwitch />
        </div>
      </header>
      <OfflineBanner />
      <main id="main" className="narrow">
        {children}
      </main>
    </>
  );
}

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { useMe } from '../api/auth';
import { ProblemError } from '../api/client';
import { ProblemAlert } from '../components/ProblemAlert';
import { SkeletonRows } from '../components/States';
import { I18nProvider, useMessages, type Locale } from '../i18n';
import { common } from '../i18n/common';
import { Layout, PublicLayout } from './Layout';
import { ROUTES } from './routes';
import { nextPath, signInPath, useSessionExpiry } from './session';

/** Retries what may pass on a second try (network, 5xx); never a 4xx, which says what is wrong. */
function retry(failures: number, error: unknown): boolean {
  if (error instanceof ProblemError && error.status < 500) return false;
  return failures < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache(),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: { retry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

function Loading() {
  return <SkeletonRows rows={4} columns={3} />;
}

/** The pages after sign-in: unknown user → a skeleton; nobody → sign-in, coming back here afterwards. */
function SignedIn({ children }: { children: ReactNode }) {
  const me = useMe();
  const [location] = useLocation();
  const search = useSearch();
  // The frame is drawn at once and stays: only its content changes when the user is known (no layout shift).
  if (me.isPending)
    return (
      <Layout userName="">
        <Loading />
      </Layout>
    );
  if (me.isError) return <ProblemAlert error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <Redirect to={signInPath(location + (search ? `?${search}` : ''))} replace />;
  return <Layout userName={me.data.name}>{children}</Layout>;
}

/** Sign-in and sign-up for somebody already signed in go on to where they were headed. */
function Public({ path, children }: { path: string; children: ReactNode }) {
  const me = useMe();
  const search = useSearch();
  if ((path === '/sign-in' || path === '/sign-up') && me.data) return <Redirect to={nextPath(search)} replace />;
  return <PublicLayout>{children}</PublicLayout>;
}

function NotFound() {
  const t = useMessages(common);
  return (
    <PublicLayout>
      <h1>{t.notFoundTitle}</h1>
      <p>{t.notFoundText}</p>
      <Link href="/">{t.goHome}</Link>
    </PublicLayout>
  );
}

function Pages() {
  useSessionExpiry();
  return (
    <Switch>
      {ROUTES.map(({ path, access, page: PageComponent }) => (
        <Route key={path} path={path}>
          {access === 'public' ? (
            <Public path={path}>
              <Suspense fallback={<Loading />}>
                <PageComponent />
              </Suspense>
            </Public>
          ) : (
            <SignedIn>
              <Suspense fallback={<Loading />}>
                <PageComponent />
              </Suspense>
            </SignedIn>
          )}
        </Route>
      ))}
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}

export function App({ queryClient = createQueryClient(), locale }: { queryClient?: QueryClient; locale?: Locale }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider {...(locale ? { locale } : {})}>
        <Router base="/console">
          <Pages />
        </Router>
      </I18nProvider>
    </QueryClientProvider>
  );
}

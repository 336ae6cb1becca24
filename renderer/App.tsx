import { Suspense, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { ErrorState, Spinner } from './components/States.tsx';
import { BreachesPage } from './features/breaches/BreachesPage.tsx';
import { FixPage } from './features/fix/FixPage.tsx';
import { GraphPage } from './features/graph/GraphPage.tsx';
import { SearchPage } from './features/search/SearchPage.tsx';
import { OverviewPage } from './features/overview/OverviewPage.tsx';
import { ReportsPage } from './features/reports/ReportsPage.tsx';
import { SettingsPage } from './features/settings/SettingsPage.tsx';
import { BannerStack } from './features/shell/BannerStack.tsx';
import { Nav } from './features/shell/Nav.tsx';
import { DisconnectedBanner, NewBreachesBanner, ServiceNoticeBanner, SignInBanner } from './features/status/Banners.tsx';
import { StatusBar } from './features/status/StatusBar.tsx';
import { Welcome } from './features/welcome/Welcome.tsx';
import { WelcomeAddresses } from './features/welcome/WelcomeAddresses.tsx';
import { useFirstRun } from './state/firstRun.ts';
import { ChecksBanner } from './features/checks/ChecksBanner.tsx';
import { DemoLabel } from './features/checks/DemoLabel.tsx';
import { PasswordCheckPage } from './features/passwords/PasswordCheckPage.tsx';
import { onAccountChange } from './lib/accountScope.ts';
import { lazyRetrying } from './lib/lazyRetrying.ts';
import { EMPTY_FILTERS } from './lib/urlState.ts';
import { effectiveAuthState, useAuth } from './state/auth.ts';
import { useBreaches } from './state/breaches.ts';
import { connectEvents, loadInitial } from './state/connect.ts';
import { startRouter, useRoute } from './state/route.ts';

// Loaded when first opened: evaluated with the rest, the import page cost the way to the breach list
// ~100 ms (`bench:ui` navigation_to_list 1.99–2.23× eager, 1.56× lazy).
const LoginsPage = lazyRetrying(async () => ({ default: (await import('./features/logins/LoginsPage.tsx')).LoginsPage }));

export interface AppProps {
  /** Tests shorten the search debounce. */
  searchDelayMs?: number;
  /** The first load of what every screen needs, when the entry point started it before the first render. */
  initialLoad?: Promise<void>;
}

export function App({ searchDelayMs, initialLoad }: AppProps) {
  const auth = useAuth();
  const state = effectiveAuthState(auth);
  const addressesStep = useFirstRun((s) => s.addressesStep);

  useEffect(() => {
    const stopRouter = startRouter();
    const stopEvents = connectEvents();
    if (!initialLoad) void loadInitial();
    return () => {
      stopRouter();
      stopEvents();
    };
  }, [initialLoad]);

  if (state === 'loading') {
    return (
      <main className="boot" id="main">
        {auth.loadError ? (
          <ErrorState title="Breach Monitor isn’t answering" message={auth.loadError} onRetry={() => void auth.load()} />
        ) : (
          <p role="status">
            <Spinner label="Opening Breach Monitor…" />
          </p>
        )}
      </main>
    );
  }
  // A returning person whose session ended keeps their data: the shell with a banner, not the door.
  if (state === 'signed-out' || (state === 'signing-in' && !auth.status?.account)) return <Welcome />;
  // The first run with the person's own key goes on with the addresses to watch.
  if (addressesStep && state === 'signed-in') return <WelcomeAddresses />;
  // Keyed by account: what the pages keep of their own (a typed query, an open form) starts afresh for another person.
  return <Shell key={auth.status?.account?.accountId} searchDelayMs={searchDelayMs} />;
}

const TITLES = {
  overview: 'Overview',
  fix: 'Fix step by step',
  breaches: 'Breaches',
  logins: 'Your accounts',
  search: 'Search',
  graph: 'Graph',
  reports: 'Reports',
  passwords: 'Check a password',
  settings: 'Settings',
} as const;

/** Screens that show the person's breaches: they carry the demo label while the data is invented. */
const EXPOSURE_SCREENS: ReadonlySet<string> = new Set(['overview', 'fix', 'breaches', 'reports', 'graph']);

function Screen({ screen, searchDelayMs }: AppProps & { screen: keyof typeof TITLES }) {
  switch (screen) {
    case 'breaches':
      return <BreachesPage searchDelayMs={searchDelayMs} />;
    case 'fix':
      return <FixPage />;
    case 'search':
      return <SearchPage />;
    case 'graph':
      return <GraphPage />;
    case 'reports':
      return <ReportsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'passwords':
      return <PasswordCheckPage />;
    case 'logins':
      return (
        <Suspense fallback={<Spinner label="Opening Your accounts…" />}>
          <LoginsPage />
        </Suspense>
      );
    default:
      return <OverviewPage />;
  }
}

/** Where each screen was scrolled to; a screen not seen yet starts at its top. */
const scrollPositions = new Map<string, number>();
// Keys name breaches (a fix page each): another account starts every screen at its top.
onAccountChange(() => scrollPositions.clear());

/**
 * The screens share one scrolling `<main>`, which would otherwise carry one page's scroll into
 * the next. Keyed by screen, plus the breach of a fix page (each its own page).
 */
function useScrollPerScreen(main: RefObject<HTMLElement | null>, key: string): void {
  const shown = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const element = main.current;
    if (!element) return;
    const saved = scrollPositions.get(key);
    // A new `<main>` is at its top: setting it there would only make the browser lay out the
    // whole new page in the middle of its first render (writing scrollTop needs a layout).
    if (saved !== undefined || shown.current !== undefined) element.scrollTop = saved ?? 0;
    shown.current = key;
    const remember = () => scrollPositions.set(key, element.scrollTop);
    element.addEventListener('scroll', remember, { passive: true });
    return () => element.removeEventListener('scroll', remember);
  }, [main, key]);
}

function Shell({ searchDelayMs }: AppProps) {
  const screen = useRoute((s) => s.route.screen);
  const fixBreach = useRoute((s) => s.route.fix?.breachId);
  const main = useRef<HTMLElement>(null);
  useScrollPerScreen(main, screen === 'fix' && fixBreach ? `fix/${fixBreach}` : screen);
  // The list is what a person opens most: have it ready before they click (only the first screen decides).
  // A layout effect: it runs before the first screen's own requests, so the core answers it first.
  const firstScreen = useRef(screen);
  useLayoutEffect(() => {
    if (firstScreen.current !== 'breaches') useBreaches.getState().prefetch(EMPTY_FILTERS);
  }, []);
  useEffect(() => {
    document.title = `${TITLES[screen]} · Breach Monitor`;
  }, [screen]);
  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <Nav />
      <div className="shell-main">
        <StatusBar />
        <BannerStack>
          <SignInBanner />
          <DisconnectedBanner />
          <ServiceNoticeBanner />
          <NewBreachesBanner />
          <ChecksBanner />
        </BannerStack>
        {EXPOSURE_SCREENS.has(screen) ? <DemoLabel /> : null}
        <main className={`content content-${screen}`} id="main" tabIndex={-1} ref={main}>
          <Screen screen={screen} searchDelayMs={searchDelayMs} />
        </main>
      </div>
    </div>
  );
}

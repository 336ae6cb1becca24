import { Icon, type IconName } from '../../components/Icon.tsx';
import { formatHash, type Screen } from '../../lib/urlState.ts';
import { useAuth } from '../../state/auth.ts';
import { useRoute } from '../../state/route.ts';
import { lastGraphQuery } from '../graph/lastQuery.ts';

const ITEMS: { screen: Screen; label: string; icon: IconName }[] = [
  { screen: 'overview', label: 'Overview', icon: 'grid' },
  { screen: 'fix', label: 'Fix step by step', icon: 'wrench' },
  { screen: 'breaches', label: 'Breaches', icon: 'list' },
  { screen: 'logins', label: 'Your accounts', icon: 'key' },
  { screen: 'search', label: 'Search', icon: 'search' },
  { screen: 'graph', label: 'Graph', icon: 'graph' },
  { screen: 'reports', label: 'Reports', icon: 'download' },
  { screen: 'passwords', label: 'Check a password', icon: 'lock' },
  { screen: 'settings', label: 'Settings', icon: 'gear' },
];

export function Nav() {
  const route = useRoute((s) => s.route);
  const account = useAuth((s) => s.status?.account);
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="shield" size={18} />
        </span>
        <span>Breach Monitor</span>
      </div>
      <ul className="nav-list">
        {ITEMS.map((item) => {
          // Links keep the filters, so Breaches comes back as it was left.
          const href = formatHash({
            screen: item.screen,
            filters: route.filters,
            breachId: item.screen === 'breaches' ? route.breachId : undefined,
            // The graph's query lives only in graph URLs; the link brings back the last one.
            graph: item.screen === 'graph' ? (route.graph ?? lastGraphQuery()) : undefined,
          });
          const current = route.screen === item.screen;
          return (
            <li key={item.screen}>
              <a className={current ? 'nav-link is-current' : 'nav-link'} href={href} aria-current={current ? 'page' : undefined}>
                <Icon name={item.icon} />
                {item.label}
              </a>
            </li>
          );
        })}
      </ul>
      {account ? (
        <p className="nav-account" title={account.issuer}>
          <Icon name="mail" size={14} />
          <span className="truncate">{account.email ?? account.name ?? account.accountId}</span>
        </p>
      ) : null}
    </nav>
  );
}

import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon.tsx';

/** The first run's frame: the page's landmark, the brand, then the step's own content. */
export function WelcomeCard({ children }: { children: ReactNode }) {
  return (
    <main className="welcome" id="main">
      <div className="welcome-card">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            <Icon name="shield" size={22} />
          </span>
          <span>Breach Monitor</span>
        </div>
        {children}
      </div>
    </main>
  );
}

import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon.tsx';

/** Empty and error states with a reason and a way forward, never a bare blank. */
export function EmptyState({ icon = 'shield', title, children, action }: { icon?: IconName; title: string; children?: ReactNode; action?: ReactNode }) {
  // h2: empty states stand in for a page's or pane's main content, right below its h1.
  return (
    <div className="empty-state">
      <span className="empty-state-icon">
        <Icon name={icon} size={24} />
      </span>
      <h2 className="empty-state-title">{title}</h2>
      {children ? <div className="empty-state-body">{children}</div> : null}
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}

export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div className="empty-state empty-state-error" role="alert">
      <span className="empty-state-icon">
        <Icon name="alert" size={24} />
      </span>
      <h2 className="empty-state-title">{title}</h2>
      <p className="empty-state-body">{message}</p>
      {onRetry ? (
        <div className="empty-state-action">
          <button type="button" className="button" onClick={onRetry}>
            Try again
          </button>
        </div>
      ) : null}
    </div>
  );
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner-wrap">
      <span className="spinner" aria-hidden="true" />
      {label ? <span>{label}</span> : null}
    </span>
  );
}

/** Placeholder blocks the shape of the content, so the real thing lands without a jump. */
export function Skeleton({ lines = 3, className }: { lines?: number; className?: string }) {
  return (
    <div className={className ? `skeleton ${className}` : 'skeleton'} aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton-line" />
      ))}
    </div>
  );
}

import type { ReactNode } from 'react';
import type { ApiProblem } from '../http';
import { Button } from './form';
import { formatDateTime, formatMoney as sharedFormatMoney } from '../../../shared/format';

export function Notice({
  tone = 'info',
  children,
  testId,
}: {
  tone?: 'info' | 'success' | 'warning' | 'error';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}

/** A load that failed: the server's message and a way to try again. */
export function LoadProblem({ problem, retry }: { problem?: ApiProblem | null; retry?: () => void }) {
  if (!problem) return null;
  return (
    <Notice tone="error">
      {problem.message}
      {retry && (
        <button type="button" className="button button-link" onClick={retry}>
          Try again
        </button>
      )}
    </Notice>
  );
}

/** Nothing to list yet; `action`, the button that makes the first one. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: { label: string; run(): void } }) {
  return (
    <div className="empty-state">
      <h3>{title}</h3>
      <p>{children}</p>
      {action && (
        <Button variant="primary" onClick={action.run}>
          {action.label}
        </Button>
      )}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Pager({
  page,
  limit,
  total,
  onPage,
  label,
}: {
  page: number;
  limit: number;
  total: number;
  onPage(page: number): void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="button button-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="button button-secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export function Badge({ tone, children }: { tone: 'good' | 'bad' | 'neutral' | 'busy'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** A moment as every page of the portal and the admin panel writes it (shared/format.ts). */
export function formatDate(value: string | null | undefined): string {
  return formatDateTime(value);
}

export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

/** The shared money formatter (the admin panel's too). */
export function formatMoney(minorOrMajor: number, currency: string, unit: 'major' | 'minor' = 'major'): string {
  return sharedFormatMoney(minorOrMajor, currency, { unit });
}

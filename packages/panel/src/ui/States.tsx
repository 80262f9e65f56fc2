import { CircleAlert, CircleCheck, Info, RotateCw, type LucideIcon } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { messageOf } from '../api/client';
import { Button } from './Button';

export function EmptyState({ icon: Icon, title, children, action }: { icon: LucideIcon; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden>
        <Icon size={24} />
      </div>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="empty" role="alert">
      <div className="empty-icon" style={{ background: 'var(--danger-soft)', color: 'var(--danger)' }} aria-hidden>
        <CircleAlert size={24} />
      </div>
      <h2>Não foi possível carregar</h2>
      <p>{messageOf(error)}</p>
      {onRetry ? (
        <Button icon={<RotateCw size={16} aria-hidden />} onClick={onRetry}>
          Tentar de novo
        </Button>
      ) : null}
    </div>
  );
}

export function Loading({ rows = 4, label = 'Carregando…' }: { rows?: number; label?: string }) {
  return (
    <div className="loading-block" role="status" aria-live="polite">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ width: `${90 - ((i * 17) % 40)}%` }} />
      ))}
    </div>
  );
}

export function Alert({ kind, children, icon }: { kind: 'danger' | 'warning' | 'success' | 'info'; children: ReactNode; icon?: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'danger' ? 'alert' : 'status'}>
      {icon ??
        (kind === 'success' ? <CircleCheck size={16} aria-hidden /> : kind === 'info' ? <Info size={16} aria-hidden /> : <CircleAlert size={16} aria-hidden />)}
      <div>{children}</div>
    </div>
  );
}

/** A list's states in one place: loading, the error with a retry, the empty state, else its page (children). */
export function ListState<P extends { data: unknown[] }>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<P>;
  empty: ReactNode;
  children: (page: P) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.data.length === 0) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

import { LoaderCircle } from 'lucide-react';

export function FullPageLoading() {
  return (
    <div style={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }} role="status" aria-live="polite">
      <LoaderCircle size={28} className="spin" aria-hidden color="var(--text-3)" />
      <span className="sr-only">Carregando…</span>
    </div>
  );
}

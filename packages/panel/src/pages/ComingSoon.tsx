import type { LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import { EmptyState } from '../ui/States';

export function ComingSoon({ title, icon, text }: { title: string; icon: LucideIcon; text: string }) {
  useEffect(() => {
    document.title = `${title} · autosales`;
  }, [title]);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{title}</h1>
        </div>
      </div>
      <div className="card">
        <EmptyState icon={icon} title="Em breve">
          {text} Enquanto isso, tudo já pode ser feito pela API.
        </EmptyState>
      </div>
    </>
  );
}

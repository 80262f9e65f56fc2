import { ShieldOff } from 'lucide-react';
import { EmptyState } from './States';

/** What a page a role may not open shows (the server refuses its data too), instead of a blank page. */
export function NoAccess({ what }: { what?: string }) {
  return (
    <div className="card" data-testid="no-access">
      <EmptyState icon={ShieldOff} title="Sem acesso">
        {what ? `${what}: seu` : 'Seu'} papel na equipe não permite ver esta página. Fale com o proprietário da loja.
      </EmptyState>
    </div>
  );
}

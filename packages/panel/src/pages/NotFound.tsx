import { MapPinOff } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../ui/States';

export function NotFoundPage() {
  return (
    <div className="card">
      <EmptyState
        icon={MapPinOff}
        title="Página não encontrada"
        action={
          <Link className="btn" to="/">
            Voltar ao início
          </Link>
        }
      >
        O endereço aberto não existe no painel.
      </EmptyState>
    </div>
  );
}

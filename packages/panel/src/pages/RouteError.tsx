import { RotateCw, TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Brand } from '../ui/Brand';

/**
 * What a page that failed to render shows instead of the router's default (English, developer-facing).
 * A page's file that does not load is either a lost connection (the browser says it is offline) or a
 * new release that replaced the file while this tab was open; the notice says which it can tell.
 */
export function RouteError() {
  const error = useRouteError();
  const chunk = error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const offline = chunk && !navigator.onLine;
  return (
    <div className="auth">
      <main className="card auth-card" role="alert">
        <Brand />
        <div className="empty" style={{ padding: '8px 0 0' }}>
          <div className="empty-icon" style={{ background: 'var(--warning-soft)', color: 'var(--warning)' }} aria-hidden>
            <TriangleAlert size={24} />
          </div>
          <h1 style={{ fontSize: 18 }}>
            {notFound
              ? 'Página não encontrada'
              : offline
                ? 'Sem conexão com a internet'
                : chunk
                  ? 'Não foi possível abrir esta página'
                  : 'Algo deu errado nesta página'}
          </h1>
          <p>
            {notFound
              ? 'O endereço aberto não existe no painel.'
              : offline
                ? 'Esta página precisa da internet para abrir. Verifique a conexão e tente de novo.'
                : chunk
                  ? 'A conexão falhou ou o painel foi atualizado enquanto esta aba estava aberta. Recarregue a página para continuar.'
                  : 'Recarregue a página. Se o problema continuar, fale com o suporte da autosales.'}
          </p>
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            <RotateCw size={16} aria-hidden /> Recarregar
          </button>
        </div>
      </main>
    </div>
  );
}

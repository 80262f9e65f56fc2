import { Columns3, KeyRound, Users, Webhook, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { permissions, useCurrentSession } from '../auth/session';

interface Tile {
  to: string;
  icon: LucideIcon;
  title: string;
  text: string;
  show: boolean;
}

export function HomePage() {
  const { user, team } = useCurrentSession();
  const can = permissions(user.role);
  useEffect(() => {
    document.title = 'Início · autosales';
  }, []);
  const first = user.name.split(/\s+/)[0] ?? user.name;
  const tiles: Tile[] = [
    { to: '/configuracoes/webhooks', icon: Webhook, title: 'Webhooks', text: 'Avise seus sistemas quando um negócio ou cliente mudar.', show: can.webhooks },
    { to: '/configuracoes/chaves-de-api', icon: KeyRound, title: 'Chaves de API', text: 'Dê acesso à API para integrações, com escopos.', show: can.keys },
    { to: '/configuracoes/quadros', icon: Columns3, title: 'Quadros', text: 'As fases do funil de negócios e do quadro de veículos.', show: can.boards },
    { to: '/configuracoes/pessoas', icon: Users, title: 'Pessoas', text: 'Convide a equipe e defina o que cada um pode fazer.', show: can.people },
  ];
  const visible = tiles.filter((t) => t.show);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Olá, {first}</h1>
          <p>
            Este é o painel da <strong>{team.name}</strong>. Os quadros de negócios e veículos chegam em breve; a configuração da loja já está aqui.
          </p>
        </div>
      </div>
      {visible.length > 0 ? (
        <div className="home-grid">
          {visible.map((t) => (
            <Link key={t.to} to={t.to} className="card home-tile">
              <span className="empty-icon" style={{ width: 36, height: 36, marginBottom: 0 }} aria-hidden>
                <t.icon size={18} />
              </span>
              <h2>{t.title}</h2>
              <p>{t.text}</p>
            </Link>
          ))}
        </div>
      ) : (
        <div className="card card-body">
          <p>Os quadros de negócios, veículos e a agenda chegam em breve ao painel.</p>
        </div>
      )}
    </>
  );
}

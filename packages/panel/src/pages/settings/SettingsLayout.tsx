import { Building2, Columns3, Gauge, Inbox, KeyRound, Users, Webhook, type LucideIcon } from 'lucide-react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { permissions, useCurrentSession, type Permissions } from '../../auth/session';
import { NoAccess } from '../../ui/NoAccess';

interface Section {
  to: string;
  label: string;
  icon: LucideIcon;
  allowed: keyof Permissions;
}

const SECTIONS: Section[] = [
  { to: 'webhooks', label: 'Webhooks', icon: Webhook, allowed: 'webhooks' },
  { to: 'chaves-de-api', label: 'Chaves de API', icon: KeyRound, allowed: 'keys' },
  { to: 'quadros', label: 'Quadros', icon: Columns3, allowed: 'boards' },
  { to: 'pessoas', label: 'Pessoas', icon: Users, allowed: 'people' },
  { to: 'equipe', label: 'Equipe', icon: Building2, allowed: 'team' },
  { to: 'leads', label: 'Leads', icon: Inbox, allowed: 'leads' },
  { to: 'probabilidade', label: 'Probabilidade', icon: Gauge, allowed: 'settings' },
];

function useSections(): Section[] {
  const { user } = useCurrentSession();
  const can = permissions(user.role);
  return SECTIONS.filter((s) => can[s.allowed]);
}

export function SettingsLayout() {
  const sections = useSections();
  const location = useLocation();
  const current = location.pathname.split('/')[2];
  const allowed = current === undefined || current === '' || sections.some((s) => s.to === current);
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Configurações</h1>
          <p>Integrações, quadros e pessoas da sua loja.</p>
        </div>
      </div>
      <nav className="subnav" aria-label="Configurações">
        {sections.map((s) => (
          <NavLink key={s.to} to={s.to} className={({ isActive }) => (isActive ? 'active' : '')}>
            <s.icon size={16} aria-hidden />
            {s.label}
          </NavLink>
        ))}
      </nav>
      {allowed && sections.length > 0 ? <Outlet /> : <NoAccess />}
    </>
  );
}

export function SettingsIndex() {
  const sections = useSections();
  const first = sections[0];
  return first ? <Navigate to={first.to} replace /> : null;
}

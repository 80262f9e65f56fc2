import { Briefcase, CalendarDays, Car, ChevronDown, House, KeyRound, LogOut, Settings, Users, Wallet, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import type { Session } from '../api/types';
import { permissions, ROLE_LABELS, useSession, useSignOut, type Permissions } from '../auth/session';
import { Brand } from '../ui/Brand';
import { FullPageLoading } from '../ui/FullPage';
import { initials } from '../ui/format';
import { OfflineNotice } from '../ui/OfflineNotice';
import { ErrorState } from '../ui/States';
import { useToast } from '../ui/Toasts';
import { useLiveChanges } from '../live/changes';
import { ChangePasswordDialog } from './ChangePassword';
import { LeadNotices } from './LeadNotices';

interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  soon?: boolean;
  /** The label in the phone's bottom bar, where the long one does not fit. */
  short?: string;
}

const NAV: (NavItem & { allowed?: keyof Permissions })[] = [
  { to: '/', label: 'Início', icon: House },
  { to: '/negocios', label: 'Negócios', icon: Briefcase },
  { to: '/veiculos', label: 'Veículos', icon: Car },
  { to: '/clientes', label: 'Clientes', icon: Users },
  { to: '/agenda', label: 'Agenda', icon: CalendarDays },
  { to: '/financeiro', label: 'Financeiro', icon: Wallet, allowed: 'financial' },
];

export function Shell() {
  const session = useSession();
  const location = useLocation();

  if (session.isPending) return <FullPageLoading />;
  if (session.isError) {
    return (
      <div className="auth">
        <div className="card auth-card">
          <ErrorState error={session.error} onRetry={() => void session.refetch()} />
        </div>
      </div>
    );
  }
  if (!session.data) {
    const back = location.pathname + location.search;
    return <Navigate to={back === '/' ? '/entrar' : `/entrar?voltar=${encodeURIComponent(back)}`} replace />;
  }

  return <SignedIn session={session.data} />;
}

function SignedIn({ session }: { session: Session }) {
  useLiveChanges();
  const { user, team } = session;
  const can = permissions(user.role);
  const mine = NAV.filter((item) => !item.allowed || can[item.allowed]);
  const items: NavItem[] = can.settings ? [...mine, { to: '/configuracoes', label: 'Configurações', short: 'Ajustes', icon: Settings }] : mine;

  return (
    <>
      <a href="#conteudo" className="skip-link">
        Ir para o conteúdo
      </a>
      <header className="topbar">
        <Brand />
        <span className="team-name truncate" title={team.name}>
          {team.name}
        </span>
        <span className="spacer" />
        <LeadNotices />
        <UserMenu name={user.name} email={user.email} roleLabel={ROLE_LABELS[user.role]} />
      </header>
      <div className="layout">
        <nav className="sidenav" aria-label="Principal">
          <ul>
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === '/'} className={({ isActive }) => `nav-link ${isActive ? 'active' : ''}`}>
                  <item.icon size={18} aria-hidden />
                  {item.short ? (
                    <>
                      <span className="nav-label nav-long">{item.label}</span>
                      <span className="nav-label nav-short">{item.short}</span>
                    </>
                  ) : (
                    <span className="nav-label">{item.label}</span>
                  )}
                  {item.soon ? <span className="soon">em breve</span> : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="main" id="conteudo" tabIndex={-1}>
          <OfflineNotice />
          <Outlet />
        </main>
      </div>
    </>
  );
}

function UserMenu({ name, email, roleLabel }: { name: string; email: string; roleLabel: string }) {
  const [open, setOpen] = useState(false);
  const [changing, setChanging] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const signOut = useSignOut();
  const navigate = useNavigate();
  const toast = useToast();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    // Focus the first item so the keyboard can go straight on.
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onMenuKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = Array.from(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="user-menu" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="avatar" aria-hidden>
          {initials(name)}
        </span>
        <span className="user-name">{name}</span>
        <ChevronDown size={16} aria-hidden />
        <span className="sr-only">Menu da conta</span>
      </button>
      {open ? (
        <div className="menu" role="menu" id="user-menu" aria-label="Conta" onKeyDown={onMenuKey}>
          <div className="menu-head">
            <strong>{name}</strong>
            <div className="muted small truncate">{email}</div>
            <div className="muted small">{roleLabel}</div>
          </div>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => {
              setOpen(false);
              setChanging(true);
            }}
          >
            <KeyRound size={16} aria-hidden /> Alterar senha
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={signOut.isPending}
            onClick={() =>
              signOut.mutate(undefined, {
                onSuccess: () => void navigate('/entrar', { replace: true, state: { signedOut: true } }),
                onError: (err) => toast.error(err.message),
              })
            }
          >
            <LogOut size={16} aria-hidden /> Sair
          </button>
        </div>
      ) : null}
      <ChangePasswordDialog open={changing} onClose={() => setChanging(false)} />
    </div>
  );
}

import { Briefcase, CalendarDays, Car, Users, Wallet } from 'lucide-react';
import { createBrowserRouter, Navigate } from 'react-router';
import { ComingSoon } from './pages/ComingSoon';
import { HomePage } from './pages/Home';
import { NotFoundPage } from './pages/NotFound';
import { RouteError } from './pages/RouteError';
import { SetPasswordPage } from './pages/SetPassword';
import { Shell } from './pages/Shell';
import { SignInPage } from './pages/SignIn';
import { FullPageLoading } from './ui/FullPage';

// Settings pages are loaded on demand: most visits never open them.
export const router = createBrowserRouter([
  { path: '/entrar', element: <SignInPage />, errorElement: <RouteError /> },
  { path: '/definir-senha/:token', element: <SetPasswordPage />, errorElement: <RouteError /> },
  {
    path: '/',
    element: <Shell />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoading />,
    children: [
      { index: true, element: <HomePage /> },
      {
        path: 'negocios',
        element: <ComingSoon title="Negócios" icon={Briefcase} text="O funil de negócios, com as fases da sua loja, chega em breve ao painel." />,
      },
      { path: 'veiculos', element: <ComingSoon title="Veículos" icon={Car} text="O quadro de veículos, da compra à entrega, chega em breve ao painel." /> },
      {
        path: 'clientes',
        element: <ComingSoon title="Clientes" icon={Users} text="A lista de clientes e o histórico de cada um chegam em breve ao painel." />,
      },
      {
        path: 'agenda',
        element: <ComingSoon title="Agenda" icon={CalendarDays} text="Visitas, test drives e retornos em uma agenda só chegam em breve ao painel." />,
      },
      {
        path: 'financeiro',
        element: <ComingSoon title="Financeiro" icon={Wallet} text="Receitas, despesas e custos de cada negócio chegam em breve ao painel." />,
      },
      {
        path: 'configuracoes',
        lazy: async () => ({ Component: (await import('./pages/settings/SettingsLayout')).SettingsLayout }),
        children: [
          { index: true, lazy: async () => ({ Component: (await import('./pages/settings/SettingsLayout')).SettingsIndex }) },
          { path: 'webhooks', lazy: async () => ({ Component: (await import('./pages/settings/webhooks/WebhooksList')).WebhooksList }) },
          { path: 'webhooks/novo', lazy: async () => ({ Component: (await import('./pages/settings/webhooks/WebhookForm')).WebhookCreate }) },
          { path: 'webhooks/:id', lazy: async () => ({ Component: (await import('./pages/settings/webhooks/WebhookDetail')).WebhookDetail }) },
          { path: 'webhooks/:id/editar', lazy: async () => ({ Component: (await import('./pages/settings/webhooks/WebhookForm')).WebhookEdit }) },
          { path: 'chaves-de-api', lazy: async () => ({ Component: (await import('./pages/settings/ApiKeys')).ApiKeysPage }) },
          { path: 'quadros', lazy: async () => ({ Component: (await import('./pages/settings/Boards')).BoardsPage }) },
          { path: 'pessoas', lazy: async () => ({ Component: (await import('./pages/settings/People')).PeoplePage }) },
          { path: 'equipe', lazy: async () => ({ Component: (await import('./pages/settings/TeamSettings')).TeamSettingsPage }) },
        ],
      },
      { path: 'inicio', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

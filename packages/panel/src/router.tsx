import { createBrowserRouter, Navigate } from 'react-router';
import { HomePage } from './pages/Home';
import { NotFoundPage } from './pages/NotFound';
import { RouteError } from './pages/RouteError';
import { SetPasswordPage } from './pages/SetPassword';
import { Shell } from './pages/Shell';
import { SignInPage } from './pages/SignIn';
import { FullPageLoading } from './ui/FullPage';

// Pages past the home are loaded on demand: a visit downloads only what it opens.
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
      { path: 'negocios', lazy: async () => ({ Component: (await import('./pages/deals/DealsPage')).DealsPage }) },
      { path: 'veiculos', lazy: async () => ({ Component: (await import('./pages/vehicles/VehiclesPage')).VehiclesPage }) },
      { path: 'clientes', lazy: async () => ({ Component: (await import('./pages/clients/ClientsPage')).ClientsPage }) },
      { path: 'clientes/:id', lazy: async () => ({ Component: (await import('./pages/clients/ClientDetailPage')).ClientDetailPage }) },
      { path: 'agenda', lazy: async () => ({ Component: (await import('./pages/agenda/AgendaPage')).AgendaPage }) },
      { path: 'financeiro', lazy: async () => ({ Component: (await import('./pages/financial/FinancialPage')).FinancialPage }) },
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
          { path: 'leads', lazy: async () => ({ Component: (await import('./pages/settings/LeadSettings')).LeadSettingsPage }) },
          { path: 'probabilidade', lazy: async () => ({ Component: (await import('./pages/settings/Probability')).ProbabilityPage }) },
        ],
      },
      { path: 'inicio', element: <Navigate to="/" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

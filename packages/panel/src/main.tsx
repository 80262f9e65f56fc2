import '@fontsource-variable/inter';
import './styles.css';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/client';
import { SESSION_KEY } from './auth/session';
import { router } from './router';
import { ToastProvider } from './ui/Toasts';

// A 401 on any route means the session ended (expired, signed out elsewhere, password changed):
// forgetting it sends the user to the sign-in page, which brings them back afterwards.
function onError(err: unknown): void {
  if (err instanceof ApiError && err.status === 401) queryClient.setQueryData(SESSION_KEY, null);
}

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; network trouble and 5xx may.
      retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);

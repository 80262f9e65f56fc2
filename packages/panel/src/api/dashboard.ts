import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf } from './resources';

export const dashboardKeys = keysOf('dashboard');

export function useDashboard() {
  return useQuery({ queryKey: dashboardKeys.all, queryFn: () => unwrap(client.GET('/panel/api/dashboard')) });
}

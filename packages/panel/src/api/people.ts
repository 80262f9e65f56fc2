import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf } from './resources';

export const peopleKeys = keysOf('people');

/** The team's people, for responsible pickers and names on cards. */
export function usePeople() {
  return useQuery({ queryKey: peopleKeys.all, queryFn: () => unwrap(client.GET('/panel/api/people')), staleTime: 60_000 });
}

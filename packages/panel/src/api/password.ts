import { useMutation, useQuery } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf } from './resources';

/** Who a one-time password link is for (no session needed). */
export function usePasswordLink(token: string) {
  return useQuery({
    queryKey: keysOf('password-links').one(token),
    queryFn: () => unwrap(client.GET('/panel/api/password-links/{token}', { params: { path: { token } } })),
    retry: false,
  });
}

/** Sets the password through a one-time link; answers a new session. */
export function useUsePasswordLink(token: string) {
  return useMutation({
    mutationFn: (password: string) => unwrap(client.POST('/panel/api/password-links/{token}', { params: { path: { token } }, body: { password } })),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) => client.PUT('/panel/api/me/password', { body }),
  });
}

import { useMutation, useQuery } from '@tanstack/react-query';
import { client, unwrap } from './client';
import { keysOf, useChanged, type After } from './resources';
import type { InvitedMember, Member, PasswordLinkAnswer, Role } from './types';

export const userKeys = keysOf('users');

export function useUsers() {
  return useQuery({ queryKey: userKeys.all, queryFn: () => unwrap(client.GET('/panel/api/users')) });
}

type UserChange = { id: string; body: { role?: Role; active?: boolean } };

export function useUpdateUser(after: After<Member, UserChange> = {}) {
  const changed = useChanged('users');
  return useMutation({
    mutationFn: ({ id, body }: UserChange) => unwrap(client.PUT('/panel/api/users/{id}', { params: { path: { id } }, body })),
    onSuccess: (u, v) => {
      changed();
      after.onSuccess?.(u, v);
    },
    onError: after.onError,
  });
}

type Invitation = { name: string; email: string; role: Role };

export function useInviteUser(after: After<InvitedMember, Invitation> = {}) {
  const changed = useChanged('users');
  return useMutation({
    mutationFn: (body: Invitation) => unwrap(client.POST('/panel/api/users', { body })),
    onSuccess: (u, v) => {
      changed();
      after.onSuccess?.(u, v);
    },
    onError: after.onError,
  });
}

export function useNewPasswordLink(after: After<PasswordLinkAnswer, Member> = {}) {
  return useMutation({
    mutationFn: (u: Member) => unwrap(client.POST('/panel/api/users/{id}/password-link', { params: { path: { id: u.id } } })),
    onSuccess: after.onSuccess,
    onError: after.onError,
  });
}

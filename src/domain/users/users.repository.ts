import type { Insertable, Updateable } from 'kysely';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { locksRows } from '../../storage/dialect.js';
import type { PasswordLinkTable, UserTable } from '../../storage/database.js';

export const insertUser = (db: DbExecutor, row: Insertable<UserTable>) => db.insertInto('users').values(row).execute();

export const findUser = (db: DbExecutor, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: DbExecutor, email: string) => db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

export const listUsers = (db: DbExecutor, teamId: string) =>
  db.selectFrom('users').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('id').execute();

export async function updateUser(db: DbExecutor, id: string, patch: Updateable<UserTable>) {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
  return findUser(db, id);
}

/** Active owners of a team other than `exceptId`: the team must always keep one. */
export const countOtherActiveOwners = async (db: DbExecutor, teamId: string, exceptId: string): Promise<number> => {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .where('deactivated_at', 'is', null)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertPasswordLink = (db: DbExecutor, row: Insertable<PasswordLinkTable>) => db.insertInto('password_links').values(row).execute();

export const findPasswordLink = (db: DbExecutor, tokenHash: string) =>
  db.selectFrom('password_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** Marks a link used; true only for the one caller that got it first (a link works once). */
export async function usePasswordLink(db: DbExecutor, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('password_links').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Earlier unused links of the user stop working when a new one is issued or a password is set. */
export const expireUnusedLinks = (db: DbExecutor, userId: string, at: string) =>
  db.updateTable('password_links').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();

/** Serialises changes to a team's people (the last-owner rule reads, then writes): a row lock on PostgreSQL; SQLite runs one write transaction at a time. */
export async function lockTeamForUsers(trx: Trx, teamId: string): Promise<void> {
  if (locksRows(trx)) await trx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().executeTakeFirst();
}

import type { Insertable } from 'kysely';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { DbExecutor } from '../../storage/executor.js';
import type { SessionTable } from '../../storage/database.js';

export const insertSession = (db: DbExecutor, row: Insertable<SessionTable>) => db.insertInto('sessions').values(row).execute();

/** The session behind a token hash, with its user and the user's team: every panel request reads it, so it is built and compiled once (a named prepared statement on PostgreSQL). */
const sessionByHash = compiledQuery('session_by_hash', (db: DbExecutor, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('teams', 'teams.id', 'users.team_id')
    .select([
      'sessions.id as session_id',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.csrf_secret',
      'users.id as user_id',
      'users.email',
      'users.name',
      'users.role',
      'users.deactivated_at',
      'teams.id as team_id',
      'teams.name as team_name',
      'teams.plan',
    ])
    .where('sessions.token_hash', '=', tokenHash),
);

export const findSessionByHash = (db: DbExecutor, tokenHash: string) => sessionByHash.executeTakeFirst(db, tokenHash);

export const touchSession = (db: DbExecutor, id: string, at: string) => db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();

export const deleteSession = (db: DbExecutor, id: string) => db.deleteFrom('sessions').where('id', '=', id).execute();

/** Ends every session of a user, but one (the session that changed the password keeps going). */
export const deleteUserSessions = (db: DbExecutor, userId: string, exceptId: string | null = null) => {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.execute();
};

/** Expired sessions are removed as they are met, and in bulk from time to time. */
export const deleteExpiredSessions = (db: DbExecutor, now: string, idleBefore: string) =>
  db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]))
    .execute();

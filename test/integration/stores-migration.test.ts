import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/shared/ids.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createTeamOnOldSchema } from '../support/old-schema.js';

describe.each(DIALECTS)('migration 0018-stores on existing data (%s)', (dialect) => {
  it('gives every key stores:read, the team settings their defaults, and notes the records whose store_id names no store (kept as they are)', async () => {
    const testDb = await openTestDb(dialect, { migrate: false });
    try {
      const migrator = await stepMigrator(testDb.db);
      expect((await migrator.migrateTo('0017-loss-reasons')).error).toBeUndefined();
      const k = testDb.db.kysely;
      const team = await createTeamOnOldSchema(testDb.db, { name: 'Loja antiga' });
      const now = new Date().toISOString();
      const key = (scopes: string) => ({ id: newId(), team_id: team.id, name: null, prefix: 'ask_xx', key_hash: newId(), scopes, created_at: now });
      await k
        .insertInto('api_keys')
        .values([key('deals:read deals:write leads:write'), key('clients:read')] as never)
        .execute();
      const deal = (title: string, store: string | null) => ({
        id: newId(),
        team_id: team.id,
        title,
        currency: 'BRL',
        phase: 'lead',
        priority: 'media',
        priority_rank: 2,
        probability: 10,
        status: 'ativo',
        tags: '[]',
        is_starred: dialect === 'postgres' ? false : 0,
        store_id: store,
        search_text: title,
        title_key: title,
        created_at: now,
        updated_at: now,
      });
      const old = deal('Da loja antiga', 'loja-centro');
      await k
        .insertInto('deals')
        .values([old, deal('Sem loja', null)] as never)
        .execute();

      await migrateToLatest(testDb.db);

      const scopes = (await k.selectFrom('api_keys').select('scopes').execute()).map((r) => r.scopes).sort();
      expect(scopes).toEqual(['clients:read stores:read', 'deals:read deals:write leads:write stores:read']);
      const settings = await sql<{ b: string; v: string }>`select client_book as b, seller_visibility as v from teams`.execute(k);
      expect(settings.rows).toEqual([{ b: 'shared', v: 'all' }]);
      const notes = await k.selectFrom('migration_notes').select(['migration', 'note']).execute();
      expect(notes).toEqual([{ migration: '0018-stores', note: expect.stringContaining('deals: 1 registro(s)') }]);
      // The record keeps its free-text store and still reads as before.
      const kept = await k.selectFrom('deals').select('store_id').where('id', '=', old.id).executeTakeFirstOrThrow();
      expect(kept.store_id).toBe('loja-centro');
      for (const table of ['users', 'api_keys', 'webhooks', 'activities', 'financial_records'] as const) {
        await sql`select store_id from ${sql.table(table)}`.execute(k);
      }
    } finally {
      await testDb.close();
    }
  }, 60_000);
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/shared/ids.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createTeamOnOldSchema } from '../support/old-schema.js';

describe.each(DIALECTS)('migration 0016-leads on existing data (%s)', (dialect) => {
  it("fills the clients' contact keys, the users' takes_leads and the working keys' leads:write", async () => {
    const testDb = await openTestDb(dialect, { migrate: false });
    try {
      const migrator = await stepMigrator(testDb.db);
      expect((await migrator.migrateTo('0014-ai')).error).toBeUndefined();
      const k = testDb.db.kysely;
      const team = await createTeamOnOldSchema(testDb.db, { name: 'Loja antiga' });
      const now = new Date().toISOString();
      const client = (name: string, contact: Record<string, string | null>) => ({
        id: newId(),
        team_id: team.id,
        type: 'PF',
        name,
        email: null,
        phone: null,
        mobile_phone: null,
        whatsapp: null,
        status: 'active',
        tags: '[]',
        search_text: name.toLowerCase(),
        name_key: name.toLowerCase(),
        created_at: now,
        updated_at: now,
        ...contact,
      });
      const ana = client('Ana', { email: ' Ana@Example.com ', whatsapp: '+55 (11) 98765-4321' });
      const bia = client('Bia', { phone: '(19) 3232-4545', mobile_phone: '123' });
      const rows = [ana, bia, ...Array.from({ length: 1500 }, (_, i) => client(`C${i}`, { email: `c${i}@example.com` }))];
      for (let i = 0; i < rows.length; i += 200)
        await k
          .insertInto('clients')
          .values(rows.slice(i, i + 200) as never)
          .execute();
      const user = (role: string) => ({ id: newId(), team_id: team.id, email: `${role}@example.com`, name: role, role, created_at: now, updated_at: now });
      await k
        .insertInto('users')
        .values([user('owner'), user('seller')] as never)
        .execute();
      const key = (id: string, scopes: string) => ({ id, team_id: team.id, name: null, prefix: id.slice(0, 8), key_hash: id, scopes, created_at: now });
      await k
        .insertInto('api_keys')
        .values([key(newId(), 'deals:read deals:write clients:read clients:write'), key(newId(), 'deals:read')] as never)
        .execute();

      await migrateToLatest(testDb.db);

      const keys = await k
        .selectFrom('clients')
        .select(['name', 'email_key', 'phone_key', 'mobile_phone_key', 'whatsapp_key'])
        .where('name', 'in', ['Ana', 'Bia', 'C1499'])
        .orderBy('name')
        .execute();
      expect(keys).toEqual([
        { name: 'Ana', email_key: 'ana@example.com', phone_key: null, mobile_phone_key: null, whatsapp_key: '11987654321' },
        { name: 'Bia', email_key: null, phone_key: '1932324545', mobile_phone_key: null, whatsapp_key: null },
        { name: 'C1499', email_key: 'c1499@example.com', phone_key: null, mobile_phone_key: null, whatsapp_key: null },
      ]);
      const takes = await k.selectFrom('users').select(['role', 'takes_leads']).orderBy('role').execute();
      expect(takes.map((u) => [u.role, Boolean(u.takes_leads)])).toEqual([
        ['owner', false],
        ['seller', true],
      ]);
      const scopes = (await k.selectFrom('api_keys').select('scopes').execute()).map((r) => r.scopes).sort();
      // 0018 (stores) then gives every key stores:read.
      expect(scopes).toEqual(['deals:read deals:write clients:read clients:write leads:write stores:read', 'deals:read stores:read']);
      const settings = await sql<{ d: string; m: number }>`select lead_distribution as d, lead_response_minutes as m from teams`.execute(k);
      expect(settings.rows).toEqual([{ d: 'round_robin', m: 15 }]);
    } finally {
      await testDb.close();
    }
  });
});

import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createServices } from '../../src/app/services.js';
import { normalizeTaxId } from '../../src/domain/shared/tax-id.js';
import { containsPattern } from '../../src/domain/shared/text-search.js';
import type { ClientUpdate, Database } from '../../src/storage/database.js';
import { CLIENT_TAX_DIGITS_FLAG, CNPJ_WINDOW_ROWS } from '../../src/storage/exact-search.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { DIALECTS, openTestDb, stepMigrator } from '../support/dialects.js';
import { createHarness, type Caller, type Harness } from '../support/harness.js';
import { seedOnOldSchema } from '../support/old-schema.js';

/**
 * Migration 0012 (issue 15): on SQLite a client search for a full CPF or CNPJ (bare or punctuated) is
 * answered from the tax-number indexes plus the rows flagged as holding a tax number elsewhere in their
 * text (PostgreSQL keeps its trigram index: the same checks pin it too).
 * What must not change, pinned against a plain LIKE (the contract's contains-match, with the
 * unpunctuated form a punctuated tax number also searches): the same rows and the same exact total,
 * whatever else holds the digits (a name, an e-mail, another client's CNPJ at any offset, a punctuated
 * number in a name), for rows written by the API and by SQL outside it (keys that disagree with the
 * text, odd characters, repeated parts), in every status, and after an upgrade of a database holding data.
 */

/** A valid CPF or CNPJ from its first digits (mod-11 check digits). */
function withCheckDigits(base: string, weights: (n: number) => number[]): string {
  let digits = base;
  for (let k = 0; k < 2; k++) {
    const w = weights(digits.length);
    const sum = [...digits].reduce((s, c, i) => s + Number(c) * w[i]!, 0);
    const r = sum % 11;
    digits += String(r < 2 ? 0 : 11 - r);
  }
  return digits;
}
const cpfOf = (nine: string) => withCheckDigits(nine, (n) => Array.from({ length: n }, (_, i) => n + 1 - i));
const CNPJ_W = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjOf = (twelve: string) => withCheckDigits(twelve, (n) => CNPJ_W.slice(13 - n));
const formatCpf = (c: string) => `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`;
const formatCnpj = (c: string) => `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;

const TAX_ID_QUERY = /^(?=.*\d)[\dA-Za-z]*[./-][\dA-Za-z./\s-]*$/;

/** The ids a LIKE over the team's rows finds for a search (a punctuated tax number also searches its unpunctuated form). */
async function likeIds(db: Kysely<Database>, teamId: string, query: string, status?: string): Promise<string[]> {
  const forms = [...new Set(TAX_ID_QUERY.test(query) ? [query, normalizeTaxId(query)] : [query])];
  const likes = forms.map((f) => sql`search_text like ${containsPattern(f)} escape '\\'`);
  const { rows } = await sql<{ id: string }>`select id from clients where team_id = ${teamId}
    and status = ${status ?? 'active'} and (${sql.join(likes, sql` or `)})`.execute(db);
  return rows.map((r) => r.id).sort();
}

/** Every id the API answers (walking pages of 2) and the totals it gave. */
async function apiIds(t: Caller, query: string, status?: string): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; page < 30; page++) {
    const res = await t.get(`/clients?search=${encodeURIComponent(query)}&limit=2&page=${page}${status ? `&status=${status}` : ''}`);
    expect(res.status, res.text).toBe(200);
    totals.add(res.body.pagination.total);
    if (res.body.data.length === 0) break;
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
  }
  return { ids: ids.sort(), totals: [...totals] };
}

async function expectSameAsLike(t: Caller, db: Kysely<Database>, queries: string[], statuses: Array<string | undefined> = [undefined, 'inactive']) {
  for (const status of statuses) {
    for (const query of queries) {
      const expected = await likeIds(db, t.teamId, query, status);
      const { ids, totals } = await apiIds(t, query, status);
      expect({ query, status, ids, totals }).toEqual({ query, status, ids: expected, totals: [expected.length] });
    }
  }
}

/** Every form a full tax number is searched in, and the CPF-length windows of a CNPJ. */
const forms = (digits: string) =>
  digits.length === 11 ? [digits, formatCpf(digits)] : [digits, formatCnpj(digits), ...[0, 1, 2, 3].map((o) => digits.slice(o, o + 11))];

for (const dialect of DIALECTS) {
  describe(`client search by a full CPF or CNPJ (${dialect})`, () => {
    let h: Harness;
    let db: Kysely<Database>;
    beforeAll(async () => {
      h = await createHarness(dialect);
      db = h.testDb.db.kysely;
    });
    afterAll(() => h.close());

    it('finds exactly the rows a LIKE finds, wherever the digits are, for API and SQL writes in every status', async () => {
      const [mine, other] = [await h.team(), await h.team()];
      const cpfs = ['529982247', '111444777', '123456789', '987654321', '222333444', '333444555'].map(cpfOf);
      const cnpjs = ['112223330001', '987654320001', '529982247000'].map(cnpjOf);
      const create = async (t: Caller, body: Record<string, unknown>) => {
        const res = await t.post('/clients', body);
        expect(res.status, res.text).toBe(201);
        return res.body.data.id as string;
      };
      const ids: Record<string, string> = {};
      // Both teams hold the same clients; `ids` ends with mine's.
      for (const t of [other, mine]) {
        ids.punctuated = await create(t, { type: 'PF', name: 'Marcos Lima', cpf: formatCpf(cpfs[0]!) });
        ids.bare = await create(t, { type: 'PF', name: 'Ana Souza', cpf: cpfs[1]! });
        // Another client's CPF in a name and an e-mail, a punctuated one in a name.
        ids.inName = await create(t, { type: 'PF', name: `Indicado por ${cpfs[0]}`, cpf: cpfs[2]! });
        ids.inEmail = await create(t, { type: 'PF', name: 'Beto', email: `${cpfs[1]}@exemplo.com.br` });
        ids.punctuatedInName = await create(t, { type: 'PF', name: `Ref. ${formatCpf(cpfs[3]!)} e ${formatCnpj(cnpjs[1]!)}` });
        // CNPJs, punctuated and bare; one holds a CPF as its first 11 digits.
        ids.company = await create(t, { type: 'PJ', name: 'Auto Peças Ltda', cnpj: formatCnpj(cnpjs[0]!) });
        ids.companyBare = await create(t, { type: 'PJ', name: 'Revenda SA', cnpj: cnpjs[1]! });
        ids.companyHoldingCpf = await create(t, { type: 'PJ', name: 'Lima Veículos', cnpj: cnpjs[2]! });
        ids.inactive = await create(t, { type: 'PF', name: 'Inativo', cpf: cpfs[4]! });
        ids.plain = await create(t, { type: 'PF', name: 'Sem documento' });
      }
      expect((await mine.delete(`/clients/${ids.inactive}`)).status).toBe(200);
      const queries = [...cpfs.flatMap(forms), ...cnpjs.flatMap(forms), '00000000000', '12345678901234'];
      await expectSameAsLike(mine, db, queries);

      // SQL outside the API: keys that disagree with the text, text the keys do not explain.
      const sqlEdits: Array<[string, ClientUpdate]> = [
        // A key no longer in the text, and a text naming another number.
        [ids.bare!, { cpf_normalized: cpfs[3]!, search_text: `ana souza\u0001${cpfs[1]}` }],
        // The key's number in a second part of its own and in a longer run (the text in upper case).
        [ids.plain!, { cpf: cpfs[5]!, cpf_normalized: cpfs[5]!, search_text: `SEM DOCUMENTO\u0001${cpfs[5]}\u0001${cpfs[5]}\u0001${cpfs[5]}2` }],
        // A CPF column that is not 11 digits, holding a CPF inside it.
        [ids.inEmail!, { cpf: `9${cpfs[2]}`, cpf_normalized: `9${cpfs[2]}`, search_text: `beto\u00019${cpfs[2]}` }],
        // A typed CPF with a character normalizing does not strip (a no-break space).
        [ids.punctuated!, { cpf: `${formatCpf(cpfs[0]!)}\u00a0`, search_text: `marcos lima\u0001${formatCpf(cpfs[0]!)}\u00a0\u0001${cpfs[0]}` }],
        // A CNPJ key longer than 14 and a typed CNPJ that normalizes to something else.
        [ids.company!, { cnpj_normalized: `${cnpjs[0]}9`, search_text: `auto pecas ltda\u0001${formatCnpj(cnpjs[0]!)}\u0001${cnpjs[0]}9` }],
        [ids.companyBare!, { cnpj: formatCnpj(cnpjs[2]!), search_text: `revenda sa\u0001${formatCnpj(cnpjs[2]!)}\u0001${cnpjs[1]}` }],
      ];
      for (const [id, patch] of sqlEdits) await db.updateTable('clients').set(patch).where('id', '=', id).where('team_id', '=', mine.teamId).execute();
      await db.updateTable('clients').set({ status: 'inactive' }).where('id', '=', ids.companyHoldingCpf!).execute();
      await expectSameAsLike(mine, db, [...queries, `9${cpfs[2]}`, `${cpfs[5]}2`.slice(1)]);
      await expectSameAsLike(other, db, [cpfs[0]!, formatCpf(cpfs[1]!), cnpjs[0]!, cnpjs[2]!.slice(0, 11)], [undefined]);
    });

    it.runIf(dialect === 'sqlite')('the flag and window lookups are served by the 0012 indexes (the query repeats their predicates verbatim)', async () => {
      const t = await h.team();
      // INDEXED BY (as the repository names them) fails when the index cannot serve the condition.
      const plan = async (index: string, where: string): Promise<string> => {
        const { rows } = await sql<{ detail: string }>`explain query plan select rowid from clients indexed by ${sql.id(index)}
          where team_id = ${t.teamId} and ${sql.raw(where)}`.execute(db);
        return rows.map((r) => r.detail).join('\n');
      };
      expect(await plan('clients_team_tax_digits_idx', CLIENT_TAX_DIGITS_FLAG)).toContain('clients_team_tax_digits_idx (team_id=?)');
      const window = `substr(cnpj_normalized, 3, 11) = '12345678901' and ${CNPJ_WINDOW_ROWS}`;
      expect(await plan('clients_team_cnpj_w3_idx', window)).toContain('clients_team_cnpj_w3_idx (team_id=? AND <expr>=?)');
    });
  });

  describe(`migration 0012 on a database with data (${dialect})`, () => {
    it('indexes the clients already there: searches by tax number equal a LIKE after the upgrade', async () => {
      const testDb = await openTestDb(dialect, { migrate: false });
      try {
        const migrator = await stepMigrator(testDb.db);
        expect((await migrator.migrateTo('0011-vehicle-price-counts')).error).toBeUndefined();
        const cpf = cpfOf('529982247');
        const cnpj = cnpjOf('529982247000');
        const team = await seedOnOldSchema(dialect, testDb.db, async (seed) => {
          const seeded = await seed.teams.create({ name: 'Loja antiga', plan: 'starter', alertEmail: null });
          await seed.clients.create(seeded.id, { type: 'PF', name: 'Conceição Gonçalves', cpf: formatCpf(cpf) });
          await seed.clients.create(seeded.id, { type: 'PF', name: `Indicado por ${cpf}` });
          await seed.clients.create(seeded.id, { type: 'PJ', name: 'Lima Veículos', cnpj });
          return seeded;
        });

        await migrateToLatest(testDb.db);
        const services = createServices(testDb.db);
        const key = await services.keys.create({ teamId: team.id });
        const app = await buildApp({ db: testDb.db });
        try {
          for (const query of [cpf, formatCpf(cpf), cnpj, formatCnpj(cnpj)]) {
            const res = await app.inject({
              method: 'GET',
              url: `/api/v1/clients?search=${encodeURIComponent(query)}`,
              headers: { authorization: `Bearer ${key.key}` },
            });
            const ids = res
              .json()
              .data.map((c: { id: string }) => c.id)
              .sort();
            const expected = await likeIds(testDb.db.kysely, team.id, query);
            expect({ query, ids, total: res.json().pagination.total }).toEqual({ query, ids: expected, total: expected.length });
            expect(expected.length).toBeGreaterThan(0);
          }
        } finally {
          await app.close();
        }
      } finally {
        await testDb.close();
      }
    });
  });
}

import type { QueryCreator } from 'kysely';
import { compiledQuery } from '../../storage/compiled-query.js';
import type { Database, NewDealRow } from '../../storage/database.js';
import { dialectOf } from '../../storage/dialect.js';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { clientFirstDealColumn, ONE_DEAL_CONTEXT_COLUMNS, oneDealContextOf, type OneDealContext } from '../ai/serving.repository.js';
import { compiledInsertWithEventsPostgres, recordEvents, type EnabledHook, type EventDraft } from '../events/events.repository.js';

/**
 * A deal's create, as each database writes it best: the read of what it checks (createLookup), then
 * the deal and its events (insertDealWithEvents). The service prepares the row; how it is written is
 * decided here.
 */

/** Every column a create writes, in one fixed order: the compiled insert below binds them by position. */
const DEAL_COLUMNS = [
  'id',
  'team_id',
  'title',
  'description',
  'value_cents',
  'currency',
  'phase',
  'priority',
  'priority_rank',
  'probability',
  'status',
  'expected_close_date',
  'source',
  'loss_reason',
  'tags',
  'is_starred',
  'store_id',
  'client_id',
  'responsible_id',
  'case_id',
  'search_text',
  'title_key',
  'archived_at',
  'created_at',
  'updated_at',
  'ai_win_probability',
  'ai_summary',
  'phase_changed_at',
] as const satisfies ReadonlyArray<keyof NewDealRow>;

type DealColumn = (typeof DEAL_COLUMNS)[number];
/** A create's row: every column given (null where empty), so one compiled statement serves them all. */
export type CreatedDealRow = { [C in DealColumn]-?: Exclude<NewDealRow[C], undefined> };

/** A create's insert with its values bound by position (DEAL_COLUMNS' order, see dealValues). */
export const boundDealInsert = (db: QueryCreator<Database>, ...values: unknown[]) =>
  db.insertInto('deals').values(Object.fromEntries(DEAL_COLUMNS.map((column, i) => [column, values[i]])) as unknown as NewDealRow);

/** A create's row as the values of boundDealInsert. */
export const dealValues = (row: CreatedDealRow): unknown[] => DEAL_COLUMNS.map((column) => row[column]);

const insertDealStatement = compiledQuery('insert_deal', boundDealInsert);

/** A create's insert, built and compiled once (Kysely's building was a per-request cost of POST /deals, issue 15). */
export async function insertCreatedDeal(db: DbExecutor, row: CreatedDealRow): Promise<void> {
  await insertDealStatement.execute(db, ...dealValues(row));
}

/**
 * PostgreSQL: a create's deal, its event, its delivery and the worker's NOTIFY as one statement,
 * compiled once (events.repository.ts); more than one delivery takes the general path.
 */
export const insertDealWithEventsPostgres = compiledInsertWithEventsPostgres('deal_create', boundDealInsert);

/**
 * What a create checks and needs, in one read: the phase (its suggested probability), the client
 * (its name; `clientId` null names none), what the deal's `ai_win_probability` and `ai_summary` read
 * (the team's time zone and model version, the phase's label, the client's segment and first deal,
 * the car `caseId` names in the team) and the team's enabled webhooks, one row per webhook (one row
 * with null webhook columns when there is none).
 */
const createLookupStatement = compiledQuery(
  'deal_create_lookup',
  (db: DbExecutor, teamId: string, phase: string, clientId: string | null, caseId: string | null) =>
    db
      .selectFrom('teams as t')
      .leftJoin('team_phases as p', (join) => join.onRef('p.team_id', '=', 't.id').on('p.name', '=', phase))
      .leftJoin('clients as c', (join) => join.onRef('c.team_id', '=', 't.id').on('c.id', '=', clientId))
      .leftJoin('vehicles as v', (join) => join.onRef('v.team_id', '=', 't.id').on('v.id', '=', caseId))
      .leftJoin('ai_models as m', (join) => join.onRef('m.team_id', '=', 't.id').on('m.trained_at', 'is not', null))
      .leftJoin('webhooks as w', (join) => join.onRef('w.team_id', '=', 't.id').on('w.status', '=', 'enabled'))
      .select([
        'p.name as phase_name',
        'p.probability as phase_probability',
        ...ONE_DEAL_CONTEXT_COLUMNS,
        'c.id as client_id',
        'w.id as hook_id',
        'w.events as hook_events',
      ])
      .select(clientFirstDealColumn(teamId, clientId))
      .where('t.id', '=', teamId),
);

export interface CreateLookup {
  phase: { name: string; probability: number } | undefined;
  client: { id: string; name: string } | undefined;
  /** What the new deal's AI fields read (undefined: the team does not exist). */
  ai: OneDealContext | undefined;
  hooks: Array<{ id: string; events: string }>;
}

export async function createLookup(db: DbExecutor, teamId: string, phase: string, clientId: string | null, caseId: string | null): Promise<CreateLookup> {
  const rows = await createLookupStatement.execute(db, teamId, phase, clientId, caseId);
  const first = rows[0];
  return {
    phase: first?.phase_name != null ? { name: first.phase_name, probability: Number(first.phase_probability) } : undefined,
    client: first?.client_id != null ? { id: first.client_id, name: first.client_name! } : undefined,
    ai: first ? oneDealContextOf(first) : undefined,
    hooks: rows.flatMap((r) => (r.hook_id != null ? [{ id: r.hook_id, events: r.hook_events! }] : [])),
  };
}

/** What a create writes, prepared by the service from one read (createLookup). */
export interface PreparedDeal<V> {
  row: CreatedDealRow;
  deal: V;
  now: string;
  hooks: EnabledHook[];
  events: EventDraft[];
}

/**
 * A new deal and its events. PostgreSQL: two statements (issue 15, was eight with BEGIN and COMMIT):
 * `prepare`'s read, then the deal, its event, its deliveries and the NOTIFY in one statement, atomic on
 * its own; a transaction only to store an Idempotency-Key's answer with them (`inTransaction`).
 * SQLite: one transaction (group commit shares its COMMIT with others, storage/group-commit.ts).
 */
export async function insertDealWithEvents<V>(
  k: DbExecutor,
  teamId: string,
  prepare: (executor: DbExecutor) => Promise<PreparedDeal<V>>,
  inTransaction?: (trx: Trx, deal: V) => Promise<void>,
): Promise<V> {
  if (dialectOf(k) === 'postgres') {
    const write = async (executor: DbExecutor) => {
      const { row, deal, now, hooks, events } = await prepare(executor);
      await insertDealWithEventsPostgres(executor, dealValues(row), teamId, events, now, hooks);
      return deal;
    };
    if (!inTransaction) return write(k);
    return k.transaction().execute(async (trx) => {
      const deal = await write(trx);
      await inTransaction(trx, deal);
      return deal;
    });
  }
  return k.transaction().execute(async (trx) => {
    const { row, deal, now, hooks, events } = await prepare(trx);
    await insertCreatedDeal(trx, row);
    await recordEvents(trx, teamId, events, now, hooks);
    await inTransaction?.(trx, deal);
    return deal;
  });
}

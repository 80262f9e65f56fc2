import { sql, type InsertQueryBuilder, type InsertResult, type QueryCreator } from 'kysely';
import type { DbExecutor, Trx } from '../../storage/executor.js';
import { v7 as uuidv7 } from 'uuid';
import type { Database, EventRow } from '../../storage/database.js';
import { compiledQuery, compiledQueryFamily } from '../../storage/compiled-query.js';
import { dialectOf } from '../../storage/dialect.js';
import { newId } from '../shared/ids.js';
import { signalInProcess, DELIVERIES_CHANNEL } from './delivery-signal.js';
import { subscribes } from './events.mapper.js';
import type { EventType } from './event-types.js';

export interface EventDraft {
  type: EventType;
  object: object;
  previous: object | null;
}

/** `evt_` + a UUID v7 without dashes: time-ordered (events of one operation keep their order) and unguessable enough. */
export const newEventId = (): string => `evt_${uuidv7().replaceAll('-', '')}`;

/** True when `trx` runs on PostgreSQL (where the wake-up signal is a NOTIFY). */
const onPostgres = (trx: DbExecutor): boolean => dialectOf(trx) === 'postgres';

/** A team's enabled webhook, as the outbox needs it: which events it takes. */
export interface EnabledHook {
  id: string;
  events: string;
}

/** The rows of `drafts`, all created at `createdAt` (stored form). */
function eventRows(teamId: string, drafts: EventDraft[], createdAt: string): Array<EventRow & { created_at: string }> {
  return drafts.map((d) => ({
    id: newEventId(),
    team_id: teamId,
    type: d.type,
    object: JSON.stringify(d.object),
    previous_attributes: d.previous === null ? null : JSON.stringify(d.previous),
    created_at: createdAt,
  }));
}

/** One pending delivery per event and enabled webhook that subscribes to its type. */
function deliveryRows(teamId: string, events: EventRow[], hooks: readonly EnabledHook[], createdAt: string) {
  return events.flatMap((event) =>
    hooks.filter((hook) => subscribes(hook.events, event.type)).map((hook) => deliveryValues(newId(), teamId, hook.id, event.id, createdAt)),
  );
}

/** A pending delivery's row (the columns in the order every insert of one writes them). */
function deliveryValues(id: string, teamId: string, webhookId: string, eventId: string, createdAt: string) {
  return {
    id,
    team_id: teamId,
    webhook_id: webhookId,
    event_id: eventId,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: createdAt,
    created_at: createdAt,
  };
}

// The common case (one event, one delivery) as statements built and compiled once (issue 15: Kysely's
// building was a per-request cost of every write).
const insertEventStatement = compiledQuery(
  'insert_event',
  (db: DbExecutor, id: string, teamId: string, type: string, object: string, previous: string | null, createdAt: string) =>
    db.insertInto('events').values({ id, team_id: teamId, type, object, previous_attributes: previous, created_at: createdAt }),
);
const insertDeliveryStatement = compiledQuery(
  'insert_delivery',
  (db: DbExecutor, id: string, teamId: string, webhookId: string, eventId: string, createdAt: string) =>
    db.insertInto('deliveries').values({
      id,
      team_id: teamId,
      webhook_id: webhookId,
      event_id: eventId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: createdAt,
      created_at: createdAt,
    }),
);

/** The team's enabled webhooks. */
export const enabledHooks = (db: DbExecutor, teamId: string): Promise<EnabledHook[]> =>
  db.selectFrom('webhooks').select(['id', 'events']).where('team_id', '=', teamId).where('status', '=', 'enabled').execute();

/**
 * The transactional outbox: call inside the transaction that makes the change, so a committed
 * change always has its events (and their deliveries) and a rolled-back one never does. `createdAt`
 * is the change's own time (stored form). `hooks`: the team's enabled webhooks when the caller has
 * already read them in this transaction (read here otherwise).
 */
export async function recordEvents(trx: Trx, teamId: string, drafts: EventDraft[], createdAt: string, hooks?: readonly EnabledHook[]): Promise<EventRow[]> {
  if (drafts.length === 0) return [];
  const events = eventRows(teamId, drafts, createdAt);
  if (events.length === 1) {
    const [e] = events as [EventRow & { created_at: string }];
    await insertEventStatement.execute(trx, e.id, e.team_id, e.type, e.object, e.previous_attributes, e.created_at);
  } else await trx.insertInto('events').values(events).execute();

  const deliveries = deliveryRows(teamId, events, hooks ?? (await enabledHooks(trx, teamId)), createdAt);
  if (deliveries.length === 1 && !onPostgres(trx)) {
    const [d] = deliveries as [(typeof deliveries)[number]];
    await insertDeliveryStatement.execute(trx, d.id, d.team_id, d.webhook_id, d.event_id, createdAt);
    signalInProcess();
  } else if (deliveries.length) {
    // Wakes the delivery worker once this transaction commits (see delivery-signal.ts).
    const insert = trx.insertInto('deliveries').values(deliveries);
    if (onPostgres(trx)) {
      // The insert and its NOTIFY in one round trip (a data-modifying CTE always runs to completion).
      await trx
        .with('queued', () => insert)
        .selectNoFrom(sql`pg_notify(${DELIVERIES_CHANNEL}, '')`.as('notified'))
        .execute();
    } else {
      await insert.execute();
      signalInProcess();
    }
  }
  return events;
}

/**
 * PostgreSQL: a record's insert, its events, their deliveries and the worker's NOTIFY as one
 * statement (issue 15: one round trip instead of five). A statement is atomic on its own, so the
 * record and its events commit together or not at all even outside a transaction; inside one (an
 * Idempotency-Key's stored answer) they commit with it. Data-modifying CTEs always run to completion,
 * and the foreign keys between them (a delivery's event) are checked at the statement's end.
 * `hooks`: the team's enabled webhooks, read by the caller.
 */
export async function insertWithEventsPostgres<T extends keyof Database>(
  db: DbExecutor,
  record: (db: QueryCreator<Database>) => InsertQueryBuilder<Database, T, InsertResult>,
  teamId: string,
  drafts: EventDraft[],
  createdAt: string,
  hooks: readonly EnabledHook[],
): Promise<EventRow[]> {
  const events = eventRows(teamId, drafts, createdAt);
  return insertWithEventsPostgresRows(db, record, events, deliveryRows(teamId, events, hooks, createdAt));
}

async function insertWithEventsPostgresRows<T extends keyof Database>(
  db: DbExecutor,
  record: (db: QueryCreator<Database>) => InsertQueryBuilder<Database, T, InsertResult>,
  events: ReturnType<typeof eventRows>,
  deliveries: ReturnType<typeof deliveryRows>,
): Promise<EventRow[]> {
  let query = db.with('record', (d) => record(d)).with('event', (d) => d.insertInto('events').values(events));
  if (deliveries.length) query = query.with('queued', (d) => d.insertInto('deliveries').values(deliveries)) as unknown as typeof query;
  // The NOTIFY only when there is something to deliver, as in recordEvents.
  await query.selectNoFrom(deliveries.length ? sql`pg_notify(${DELIVERIES_CHANNEL}, '')`.as('notified') : sql`1`.as('notified')).execute();
  return events;
}

/** A record's insert whose SQL is fixed and whose values are bound by position (one compiled statement). */
export type BoundInsert<T extends keyof Database> = (db: QueryCreator<Database>, ...values: unknown[]) => InsertQueryBuilder<Database, T, InsertResult>;

/** The arguments of a compiled create after the record's values: the event's, then its delivery's (if any). */
const EVENT_ARGS = 5;
const DELIVERY_ARGS = 2;

/**
 * insertWithEventsPostgres for the common case (one event, at most one delivery) as a statement
 * built and compiled once per shape, a named prepared statement on each connection (issue 15: Kysely
 * built the CTEs on every POST /deals). The same SQL and the same values as the general path; any
 * other case takes it. `record` must use each value only as a bound value.
 */
export function compiledInsertWithEventsPostgres<T extends keyof Database>(name: string, record: BoundInsert<T>) {
  const statement = compiledQueryFamily(name, (deliveries: 'none' | 'one') => (db: DbExecutor, teamId: unknown, ...args: unknown[]) => {
    const values = args.slice(0, args.length - EVENT_ARGS - (deliveries === 'one' ? DELIVERY_ARGS : 0));
    const [eventId, type, object, previous, createdAt, deliveryId, webhookId] = args.slice(values.length) as string[];
    const event = { id: eventId!, team_id: teamId as string, type: type!, object: object!, previous_attributes: previous!, created_at: createdAt! };
    let query = db.with('record', (d) => record(d, ...values)).with('event', (d) => d.insertInto('events').values(event));
    if (deliveries === 'one') {
      const delivery = deliveryValues(deliveryId!, teamId as string, webhookId!, eventId!, createdAt!);
      query = query.with('queued', (d) => d.insertInto('deliveries').values(delivery)) as unknown as typeof query;
    }
    return query.selectNoFrom(deliveries === 'one' ? sql`pg_notify(${DELIVERIES_CHANNEL}, '')`.as('notified') : sql`1`.as('notified'));
  });
  return async (
    db: DbExecutor,
    values: readonly unknown[],
    teamId: string,
    drafts: EventDraft[],
    createdAt: string,
    hooks: readonly EnabledHook[],
  ): Promise<EventRow[]> => {
    const events = eventRows(teamId, drafts, createdAt);
    const deliveries = deliveryRows(teamId, events, hooks, createdAt);
    const [e] = events;
    if (events.length !== 1 || deliveries.length > 1 || !e) return insertWithEventsPostgresRows(db, (d) => record(d, ...values), events, deliveries);
    const eventArgs = [e.id, e.type, e.object, e.previous_attributes, e.created_at];
    const [d] = deliveries;
    if (d) await statement('one').execute(db, teamId, ...values, ...eventArgs, d.id, d.webhook_id);
    else await statement('none').execute(db, teamId, ...values, ...eventArgs);
    return events;
  };
}

/** The id and time of the team's newest event (the panel's first change cursor). */
export const newestEvent = (db: DbExecutor, teamId: string) =>
  db
    .selectFrom('events')
    .select(['id', 'created_at'])
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const findTeamEvent = (db: DbExecutor, teamId: string, id: string) =>
  db.selectFrom('events').select(['id', 'created_at']).where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();

/** The team's events after (created_at, id), oldest first, at most `limit`: read in order from events_team_created_idx. */
export const eventsAfter = (db: DbExecutor, teamId: string, after: { id: string; created_at: string | Date }, limit: number) =>
  db
    .selectFrom('events')
    .select(['id', 'type', 'created_at'])
    .where('team_id', '=', teamId)
    .where((eb) => eb.or([eb('created_at', '>', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)])]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();

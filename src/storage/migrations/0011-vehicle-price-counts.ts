import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect.js';
import { lockAgainstWrites } from './backfill-lock.js';

/** Width of one price bucket, in cents (R$ 1.000). Repositories compute the same buckets (vehicles.repository.ts). */
export const PRICE_BUCKET_CENTS = 100_000;

/**
 * vehicle_price_counts (issue 15, the price-filtered vehicle list): per team, status and price bucket
 * of R$ 1.000, how many vehicles have a price there. An exact total of a price range (`min_price`,
 * `max_price`) is the sum of the buckets wholly inside it plus a count, from the price index, of the
 * two partial buckets at its ends: at most two buckets' rows instead of every row of the range
 * (32,000 index entries for R$ 50.000–100.000 at 100,000 vehicles). Kept exact by triggers in the
 * writing transaction, like record_counts and board_totals; vehicles without a price are not
 * counted (no price range matches them). A count is the sum over `slot`s: on PostgreSQL a change
 * goes to one of 8 random slots, so concurrent writers in one team rarely wait for the same row. The
 * key starts (team_id, bucket): a range reads its buckets' rows in a row, whatever the status filter.
 */
export function vehiclePriceCounts(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const t = dialectTypes(dialect);
      await db.schema
        .createTable('vehicle_price_counts')
        .addColumn('team_id', t.uuid, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('vehicle_price_counts_pk', ['team_id', 'bucket', 'status', 'slot'])
        .execute();
      await lockAgainstWrites(db, dialect, 'vehicles');
      await sql`insert into vehicle_price_counts (team_id, status, bucket, slot, n)
        select team_id, status, ${bucketOf(sql.raw('price_cents'))}, 0, count(*) from vehicles
        where price_cents is not null group by team_id, status, ${bucketOf(sql.raw('price_cents'))}`.execute(db);
      if (dialect === 'postgres') await postgresTriggers(db);
      else await sqliteTriggers(db);
    },
  };
}

/** The bucket of a price in cents: floor division, in integers on both databases (their `/` truncates toward zero). */
function bucketOf(price: RawBuilder<unknown>): RawBuilder<number> {
  const w = sql.lit(PRICE_BUCKET_CENTS);
  return sql<number>`(case when ${price} >= 0 then ${price} / ${w} else -((-${price} - 1) / ${w}) - 1 end)`;
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  // insert … select … where: only a priced row counts (SQLite needs the WHERE for an upsert from a SELECT).
  const bump = (row: 'new' | 'old', sign: 1 | -1) => {
    const r = sql.raw(row);
    return sql`insert into vehicle_price_counts (team_id, status, bucket, slot, n)
      select ${r}.team_id, ${r}.status, ${bucketOf(sql`${r}.price_cents`)}, 0, ${sql.lit(sign)} where ${r}.price_cents is not null
      on conflict (team_id, status, bucket, slot) do update set n = n + excluded.n;`;
  };
  await sql`create trigger vehicles_price_count_insert after insert on vehicles begin ${bump('new', 1)} end`.execute(db);
  await sql`create trigger vehicles_price_count_delete after delete on vehicles begin ${bump('old', -1)} end`.execute(db);
  await sql`create trigger vehicles_price_count_update after update of price_cents, status, team_id on vehicles
    when old.price_cents is not new.price_cents or old.status is not new.status or old.team_id is not new.team_id
    begin ${bump('old', -1)} ${bump('new', 1)} end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = (row: 'new' | 'old', sign: 1 | -1) => sql`
    if ${sql.raw(row)}.price_cents is not null then
      insert into vehicle_price_counts (team_id, status, bucket, slot, n)
      values (${sql.raw(row)}.team_id, ${sql.raw(row)}.status, ${bucketOf(sql.raw(`${row}.price_cents`))}, floor(random() * 8)::int, ${sql.lit(sign)})
      on conflict (team_id, status, bucket, slot) do update set n = vehicle_price_counts.n + excluded.n;
    end if;`;
  // An update touches two counters: always in (team, status, price) order, so two transactions moving
  // vehicles in opposite directions cannot deadlock on them.
  await sql`create function vehicles_price_count_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${bump('new', 1)}
      elsif tg_op = 'DELETE' then
        ${bump('old', -1)}
      elsif (old.team_id, old.status, old.price_cents) <= (new.team_id, new.status, new.price_cents) then
        ${bump('old', -1)}
        ${bump('new', 1)}
      else
        ${bump('new', 1)}
        ${bump('old', -1)}
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger vehicles_price_count_insert_delete after insert or delete on vehicles
    for each row execute function vehicles_price_count_track()`.execute(db);
  await sql`create trigger vehicles_price_count_update after update of price_cents, status, team_id on vehicles
    for each row when ((old.price_cents, old.status, old.team_id) is distinct from (new.price_cents, new.status, new.team_id))
    execute function vehicles_price_count_track()`.execute(db);
}

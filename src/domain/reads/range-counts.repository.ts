import type { DbExecutor } from '../../storage/executor.js';
import { PRICE_BUCKET_CENTS } from '../../storage/migrations/0011-vehicle-price-counts.js';
import type { ListQuery, ResourceDescription } from './resource.js';
import { onlyStatus, statusCondition } from './read-query.repository.js';

/** Only the counted range (and the status) is filtered: the total comes from the range's bucket counters. */
export function onlyCountedRange(d: ResourceDescription, q: Omit<ListQuery, 'sort' | 'page'>): boolean {
  const counted = d.rangeCounts;
  if (!counted || q.search !== undefined) return false;
  const [min, max] = counted.filters;
  const given = Object.entries(q.filters).filter(([, value]) => value !== undefined);
  return given.length > 0 && given.every(([name]) => name === min || name === max) && !onlyStatus(q);
}

/** floor(cents / PRICE_BUCKET_CENTS), exact for every safe integer (as the migration's triggers compute it). */
const bucketOf = (cents: number): number => (cents - (((cents % PRICE_BUCKET_CENTS) + PRICE_BUCKET_CENTS) % PRICE_BUCKET_CENTS)) / PRICE_BUCKET_CENTS;

/**
 * Exact number of the team's vehicles (status as filtered) priced in [minCents, maxCents], in one
 * statement: the counters of the buckets wholly inside the range (migration 0011), plus the rows of
 * the partial buckets at each end counted from the (team_id, price_cents, id, status) index. A range
 * narrower than two buckets is counted from the index alone.
 */
export async function countInRange(db: DbExecutor, d: ResourceDescription, teamId: string, q: Omit<ListQuery, 'sort' | 'page'>): Promise<number> {
  const [minName, maxName] = d.rangeCounts!.filters;
  const minCents = q.filters[minName] as number | undefined;
  const maxCents = q.filters[maxName] as number | undefined;
  if (minCents !== undefined && maxCents !== undefined && minCents > maxCents) return 0;
  // Whole buckets: from the first that starts at or after minCents to the last that ends at or before maxCents.
  const first = minCents === undefined ? Number.MIN_SAFE_INTEGER : bucketOf(minCents + PRICE_BUCKET_CENTS - 1);
  const last = maxCents === undefined ? Number.MAX_SAFE_INTEGER : bucketOf(maxCents + 1) - 1;
  type Range = [number, number] | null;
  let whole: Range = [first, last];
  let below: Range = null;
  let above: Range = null;
  if (first > last) {
    // No whole bucket: the range is narrow (both bounds given), counted from the index.
    whole = null;
    below = [minCents!, maxCents!];
  } else {
    if (minCents !== undefined && minCents < first * PRICE_BUCKET_CENTS) below = [minCents, first * PRICE_BUCKET_CENTS - 1];
    if (maxCents !== undefined && maxCents >= (last + 1) * PRICE_BUCKET_CENTS) above = [(last + 1) * PRICE_BUCKET_CENTS, maxCents];
  }
  const { equals, status } = statusCondition(d, q.status);
  const op = equals ? '=' : '!=';
  const row = await db
    .selectNoFrom((eb) => [
      whole
        ? eb
            .selectFrom('vehicle_price_counts')
            .select((c) => c.fn.coalesce(c.fn.sum<number>('vehicle_price_counts.n'), c.lit(0)).as('n'))
            .where('vehicle_price_counts.team_id', '=', teamId)
            .where('vehicle_price_counts.status', op, status)
            .where('vehicle_price_counts.bucket', '>=', whole[0])
            .where('vehicle_price_counts.bucket', '<=', whole[1])
            .as('whole')
        : eb.lit(0).as('whole'),
      ...([below, above] as const).map((range, i) =>
        range
          ? eb
              .selectFrom('vehicles')
              .select((c) => c.fn.countAll<number>().as('n'))
              .where('vehicles.team_id', '=', teamId)
              .where('vehicles.status', op, status as never)
              .where('vehicles.price_cents', '>=', range[0])
              .where('vehicles.price_cents', '<=', range[1])
              .as(i === 0 ? 'below' : 'above')
          : eb.lit(0).as(i === 0 ? 'below' : 'above'),
      ),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.whole) + Number(row.below) + Number(row.above);
}

import { DEFAULT_PHASES } from '../teams/teams.service.js';
import type { Priority } from '../deals/deals.types.js';
import { DAY_MS, type ActivityFact, type DealHistory, type DealState, type Ms } from './ai.types.js';

/**
 * Seeded, realistic store histories with a known truth, for the tests and `npm run bench -- --ai`.
 *
 * Each deal gets a latent log-odds of winning
 *
 *   L = −0.5 + signal × (source + returning client + segment + seller + store + priority + price)
 *
 * with these effects (log-odds): source `indicacao` +1.2, `loja` +0.4, `site` 0, `telefone` −0.2,
 * `marketplace` −0.8; a returning client +0.8; segment `frotista` +0.5; each of 8 sellers a skill
 * drawn from N(0, 0.7²); store `loja-b` −0.4; priority `alta` +0.4, `baixa` −0.4; a value 10% under the
 * linked car's price +0.5 (linear in the discount). The outcome is won with probability σ(L) (the
 * truth, `truth` per deal).
 *
 * The deal's life then depends on its outcome, as in a store (with `signal` 0 it does not: every
 * deal lives like one drawn at random): a won deal moves through the phases to `fechamento` and closes
 * after 8–50 days with contacts every 2–5 days; a lost one climbs at most to `proposta` or
 * `negociacao`, closes after 10–90 days, its contacts thin out and stop, and it leaves activities
 * overdue. So the phase carries some signal (the baseline), the time since the last contact more, and
 * the deal's attributes the rest.
 */
export interface SyntheticOptions {
  seed: number;
  /** Deals created; those whose close falls after `now` stay open. */
  deals: number;
  /** 1: the effects above; 0: the outcome depends on nothing. */
  signal?: number;
  /** First creation time; creations spread over `spanDays`. */
  start?: Ms;
  spanDays?: number;
}

export interface SyntheticHistory {
  histories: DealHistory[];
  /** Per deal id: the true probability of winning. */
  truth: Map<string, number>;
  /** Per deal id: how it ends (also for the deals still open at `now`: how they will). */
  outcome: Map<string, boolean>;
  clients: Map<string, { segment: string | null; name: string }>;
  vehicles: Map<string, { price_cents: number; created_at: Ms; title: string }>;
  /** The end of the generated span: deals closing after it are open. */
  now: Ms;
}

/** mulberry32: small, fast, seeded. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES: Array<[string, number, number]> = [
  ['indicacao', 1.2, 0.15],
  ['loja', 0.4, 0.2],
  ['site', 0, 0.3],
  ['telefone', -0.2, 0.15],
  ['marketplace', -0.8, 0.2],
];
const SELLERS = 8;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function idOf(prefix: string, n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${prefix}-0000-4000-8000-${hex}`;
}

export function generateHistories(options: SyntheticOptions): SyntheticHistory {
  const rnd = prng(options.seed);
  const signal = options.signal ?? 1;
  const start = options.start ?? Date.parse('2025-01-01T12:00:00.000Z');
  const spanDays = options.spanDays ?? 540;
  const now = start + spanDays * DAY_MS;
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const pick = <T>(items: Array<[T, number, number]>): [T, number] => {
    let r = rnd();
    for (const [v, effect, weight] of items) {
      if ((r -= weight) <= 0) return [v, effect];
    }
    const last = items[items.length - 1]!;
    return [last[0], last[1]];
  };
  const skills = Array.from({ length: SELLERS }, () => gauss() * 0.7);
  const phases = DEFAULT_PHASES.map((p) => p.name);
  const clients = new Map<string, { segment: string | null; name: string }>();
  const vehicles = new Map<string, { price_cents: number; created_at: Ms; title: string }>();
  const clientIds: string[] = [];
  const histories: DealHistory[] = [];
  const truth = new Map<string, number>();
  const outcome = new Map<string, boolean>();

  const creations = Array.from({ length: options.deals }, () => start + rnd() * spanDays * DAY_MS).sort((a, b) => a - b);
  creations.forEach((created, n) => {
    const id = idOf('d0000000', n + 1);
    const [source, sourceEffect] = pick(SOURCES);
    const returning = clientIds.length > 0 && rnd() < 0.25;
    let clientId: string;
    if (returning) clientId = clientIds[Math.floor(rnd() * clientIds.length)]!;
    else {
      clientId = idOf('c0000000', clientIds.length + 1);
      clientIds.push(clientId);
      clients.set(clientId, { segment: rnd() < 0.2 ? 'frotista' : 'varejo', name: `Cliente ${clientIds.length}` });
    }
    const segment = clients.get(clientId)!.segment;
    const seller = Math.floor(rnd() * SELLERS);
    const store = rnd() < 0.5 ? 'loja-a' : 'loja-b';
    const priorityDraw = rnd();
    const priority: Priority = priorityDraw < 0.2 ? 'alta' : priorityDraw < 0.4 ? 'baixa' : 'media';
    const price = Math.round((40_000 + rnd() * 120_000) * 100);
    const discount = -0.15 + rnd() * 0.2; // value vs price: −15% … +5%
    const hasCar = rnd() < 0.8;
    const vehicleId = idOf('a0000000', n + 1);
    if (hasCar) vehicles.set(vehicleId, { price_cents: price, created_at: created - rnd() * 120 * DAY_MS, title: `Carro ${n + 1}` });
    const value = Math.round(price * (1 + discount));
    const effects =
      sourceEffect +
      (returning ? 0.8 : 0) +
      (segment === 'frotista' ? 0.5 : 0) +
      skills[seller]! +
      (store === 'loja-b' ? -0.4 : 0) +
      (priority === 'alta' ? 0.4 : priority === 'baixa' ? -0.4 : 0) +
      (hasCar ? -5 * (discount + 0.05) : 0);
    const p = sigmoid(-0.5 + signal * effects);
    const won = rnd() < p;
    truth.set(id, p);
    outcome.set(id, won);
    const livesAsWon = signal > 0 ? won : rnd() < 0.35;
    const duration = (livesAsWon ? 8 + rnd() * 42 : 10 + rnd() * 80) * DAY_MS;
    const closedAt = created + duration;
    const base: DealState = {
      at: created,
      phase: 'lead',
      status: 'ativo',
      value_cents: value,
      source,
      priority,
      client_id: clientId,
      responsible_id: `vendedor-${seller + 1}`,
      case_id: hasCar ? vehicleId : null,
      store_id: store,
      expected_close_date: new Date(created + 30 * DAY_MS).toISOString().slice(0, 10),
    };
    const states: DealState[] = [base];
    const topPhase = livesAsWon ? phases.length - 1 : 1 + Math.floor(rnd() * 3);
    for (let k = 1; k <= topPhase; k++) {
      const at = created + (duration * (k - rnd() * 0.3)) / (topPhase + 1);
      states.push({ ...states[states.length - 1]!, at, phase: phases[k]! });
    }
    const activities: ActivityFact[] = [];
    const coolsAt = livesAsWon ? closedAt : created + duration * (0.3 + rnd() * 0.4);
    for (let t = created + rnd() * 2 * DAY_MS; t < coolsAt; t += (livesAsWon ? 2 + rnd() * 3 : 3 + rnd() * 6) * DAY_MS) {
      activities.push({ type: rnd() < 0.6 ? 'call' : 'meeting', created_at: t - DAY_MS, due_at: t, completed_at: t, cancelled_at: null });
    }
    if (!livesAsWon && rnd() < 0.6) {
      const due = coolsAt + 2 * DAY_MS;
      activities.push({ type: 'call', created_at: coolsAt - DAY_MS, due_at: due, completed_at: null, cancelled_at: due + 30 * DAY_MS });
    }
    const open = closedAt > now;
    histories.push({
      id,
      created_at: created,
      states: open ? states.filter((s) => s.at <= now) : [...states, { ...states[states.length - 1]!, at: closedAt, status: won ? 'ganho' : 'perdido' }],
      activities: open
        ? activities.filter((a) => a.created_at <= now).map((a) => (a.completed_at !== null && a.completed_at > now ? { ...a, completed_at: null } : a))
        : activities,
      closed_at: open ? null : closedAt,
      won: open ? null : won,
    });
  });
  return { histories, truth, outcome, clients, vehicles, now };
}

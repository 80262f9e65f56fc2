import type { Db } from '../../storage/db.js';
import type { DbExecutor } from '../../storage/executor.js';
import type { Clock } from '../shared/clock.js';
import { canonicalId } from '../shared/ids.js';
import type { ActivityFact, StoredModel } from './ai.types.js';
import { loadActivityFacts, loadClientFacts, loadDealEvents, loadVehicleFacts } from './ai.repository.js';
import { activityFact } from './histories.js';
import type { DealFacts, ServingInputs, ServingModel } from './serving.js';
import { servingFeatures, winProbability } from './serving.js';
import { explain, type Explanation } from './explain.js';
import * as repo from './serving.repository.js';
import { summarize } from './summary.js';

/** The two fields a deal answers, as its row keeps them. */
export interface AiFields {
  ai_win_probability: number | null;
  ai_summary: string | null;
}

/** A deal's probability with the factors behind it (GET /panel/api/deals/:id/probability). */
export interface DealExplanation extends Explanation {
  ai_win_probability: number | null;
  used: ServingModel['used'];
}

const HOUR = 3_600_000;
const WRITE_CHUNK = 500;
/** A whole team is refreshed this many deals at a time, the event loop free between pages (100,000 deals must not stall the server). */
const PAGE = 250;
const NONE: AiFields = { ai_win_probability: null, ai_summary: null };

const ids = (values: Array<string | null>) => [...new Set(values.map((v) => (v === null ? null : canonicalId(v))).filter((v): v is string => v !== null))];

/** The fields from loaded inputs: null and null on an archived deal (DECISIONS). */
function fieldsOf(inputs: ServingInputs, timeZone: string, deal: DealFacts, now: number): AiFields {
  if (deal.status === 'arquivado') return NONE;
  const client = deal.client_id === null ? undefined : inputs.clients.get(deal.client_id);
  const vehicle = deal.case_id === null ? undefined : inputs.vehicles.get(deal.case_id);
  return {
    ai_win_probability: winProbability(inputs, deal, now),
    ai_summary: summarize(
      {
        deal,
        clientName: client?.name ?? null,
        vehicleTitle: vehicle?.title ?? null,
        phaseLabel: inputs.phases.get(deal.phase)?.label ?? deal.phase,
        activities: inputs.activities.get(deal.id) ?? [],
        timeZone,
      },
      now,
    ),
  };
}

/**
 * `ai_win_probability` and `ai_summary` kept fresh in each deal's row (issue 28), so reading a deal
 * costs what it did: a deal's own write computes them (its answer and event carry them), an
 * activity's or client's write refreshes the deals it touches, a training refreshes the team's open
 * deals, and the scheduler refreshes every team's hourly (days in phase, days without contact). None
 * of these writes emits an event or touches `updated_at`.
 *
 * The stored model is cached per team in memory, keyed by its version: every computation reads the
 * version with its other inputs (one statement), so a model stored by another process is seen at once.
 */
export function createAiServing(db: Db, { clock }: { clock: Clock }) {
  const cache = new Map<string, ServingModel>();
  const refreshedAt = new Map<string, number>();

  async function servingModel(executor: DbExecutor, teamId: string, known: { version: number; used: string } | null | undefined): Promise<ServingModel | null> {
    const v = known === undefined ? await repo.modelVersion(executor, teamId) : known;
    if (!v) return null;
    const cached = cache.get(teamId);
    if (cached && cached.version === v.version) return cached;
    const row = await repo.loadModelJson(executor, teamId);
    if (!row) return null;
    const model: ServingModel = { version: row.version, used: row.used, model: row.model === null ? null : (JSON.parse(row.model) as StoredModel) };
    cache.set(teamId, model);
    return model;
  }

  /** Inputs of many deals: batch statements (phases, model, clients, cars, first deals, activities), none per deal. */
  async function batchInputs(
    executor: DbExecutor,
    teamId: string,
    deals: DealFacts[],
    wholeTeam: boolean,
  ): Promise<{ inputs: ServingInputs; timeZone: string }> {
    const dealIds = deals.map((d) => d.id);
    const clientIds = ids(deals.map((d) => d.client_id));
    const vehicleIds = ids(deals.map((d) => d.case_id));
    const timeZone = await repo.teamTimeZone(executor, teamId);
    const phases = await repo.loadPhasesWithLabels(executor, teamId);
    const model = await servingModel(executor, teamId, undefined);
    const clients = await loadClientFacts(executor, teamId, wholeTeam ? undefined : clientIds);
    const vehicles = await loadVehicleFacts(executor, teamId, wholeTeam ? undefined : vehicleIds);
    const firstDeals = await repo.clientFirstDeals(executor, teamId, wholeTeam ? undefined : clientIds);
    const activities = new Map<string, ActivityFact[]>();
    for (const a of await loadActivityFacts(executor, teamId, wholeTeam ? undefined : dealIds)) {
      let list = activities.get(a.deal_id);
      if (!list) activities.set(a.deal_id, (list = []));
      list.push(activityFact(a));
    }
    return {
      timeZone,
      inputs: {
        model,
        phases: new Map(phases.map((p) => [p.name, p])),
        clients: new Map(clients.map((c) => [c.id, { segment: c.segment, name: c.name }])),
        vehicles: new Map(vehicles.map((v) => [v.id, { price_cents: v.price_cents, created_at: v.created_at, title: v.title }])),
        clientFirstDeal: firstDeals,
        activities,
      },
    };
  }

  /** When each deal whose row has no phase entry (written before migration 0014) entered its phase, from its events. */
  async function derivePhaseEntries(executor: DbExecutor, teamId: string, deals: repo.StoredDealFacts[]): Promise<Map<string, number>> {
    const missing = new Map(deals.filter((d) => d.stored_phase_changed_at === null).map((d) => [d.id, d]));
    const found = new Map<string, number>();
    if (missing.size === 0) return found;
    const last = new Map<string, string>();
    for (const e of await loadDealEvents(executor, teamId)) {
      const o = JSON.parse(e.object) as { id: string; phase: string };
      if (!missing.has(o.id)) continue;
      if (last.get(o.id) !== o.phase) found.set(o.id, e.at);
      last.set(o.id, o.phase);
    }
    for (const d of missing.values()) if (!found.has(d.id) || last.get(d.id) !== d.phase) found.set(d.id, d.created_at);
    return found;
  }

  /** Recomputes and writes the fields of some deals (all the team's not archived when `dealIds` is absent); resolves with how many changed. */
  async function refresh(executor: DbExecutor, teamId: string, dealIds?: readonly string[]): Promise<number> {
    const deals = await repo.loadDealFactsForServing(executor, teamId, dealIds);
    if (deals.length === 0) return 0;
    const entries = await derivePhaseEntries(executor, teamId, deals);
    for (const d of deals) if (entries.has(d.id)) d.phase_changed_at = entries.get(d.id)!;
    const { inputs, timeZone } = await batchInputs(executor, teamId, deals, dealIds === undefined);
    const now = clock.now().getTime();
    const writes: Array<{ id: string; fields: AiFields & { phase_changed_at?: string } }> = [];
    for (const d of deals) {
      const fields = fieldsOf(inputs, timeZone, { ...d, case_id: d.case_id === null ? null : canonicalId(d.case_id) }, now);
      const entry = entries.get(d.id);
      if (fields.ai_win_probability === d.ai_win_probability && fields.ai_summary === d.ai_summary && entry === undefined) continue;
      writes.push({ id: d.id, fields: entry === undefined ? fields : { ...fields, phase_changed_at: new Date(entry).toISOString() } });
    }
    const write = async (into: DbExecutor, chunk: typeof writes) => {
      for (const w of chunk) await repo.writeAiFields(into, teamId, w.id, w.fields);
    };
    // Outside a transaction (a training's or the hourly refresh), the writes go in transactions of 500
    // rows: one commit each, not one per row.
    if (executor.isTransaction) await write(executor, writes);
    else for (let i = 0; i < writes.length; i += WRITE_CHUNK) await executor.transaction().execute((trx) => write(trx, writes.slice(i, i + WRITE_CHUNK)));
    const changed = writes.length;
    return changed;
  }

  /** Teams known to have a phase entry on every deal (checked once per process). */
  const phaseEntriesKnown = new Set<string>();

  /**
   * Every deal of the team but the archived, PAGE deals at a time (each page reads its own inputs in
   * the same batch statements), yielding to the event loop between pages, so a team of 100,000 deals
   * never holds it for long. Deals written before migration 0014 need the team's events once: the
   * first refresh of such a team does it in one pass.
   */
  async function refreshAll(teamId: string): Promise<number> {
    let changed = 0;
    if (!phaseEntriesKnown.has(teamId)) {
      if (await repo.anyDealWithoutPhaseEntry(db.kysely, teamId)) changed += await refresh(db.kysely, teamId);
      phaseEntriesKnown.add(teamId);
    }
    let after: repo.DealCursor | null = null;
    do {
      const page: { ids: string[]; next: repo.DealCursor | null } = await repo.dealIdsPage(db.kysely, teamId, after, PAGE);
      changed += await refresh(db.kysely, teamId, page.ids);
      after = page.next;
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (after);
    return changed;
  }

  return {
    /**
     * The fields of one deal about to be written (a create or a PUT, in its transaction): one
     * statement for its context and one for its activities, unless the caller read them (a create
     * reads its context with its own checks, and a new deal has no activities). The model's JSON is
     * read only when its version is not the one cached.
     */
    async fieldsFor(
      executor: DbExecutor,
      teamId: string,
      deal: DealFacts,
      known: { context?: repo.OneDealContext; activities?: ActivityFact[] } = {},
    ): Promise<AiFields> {
      if (deal.status === 'arquivado') return NONE;
      const clientId = deal.client_id === null ? null : canonicalId(deal.client_id);
      const caseId = deal.case_id === null ? null : canonicalId(deal.case_id);
      const ctx = known.context ?? (await repo.loadOneDealContext(executor, teamId, deal.phase, clientId, caseId));
      if (!ctx) return NONE;
      const model = await servingModel(executor, teamId, ctx.model);
      const activities = known.activities ?? (await loadActivityFacts(executor, teamId, [deal.id])).map(activityFact);
      const inputs: ServingInputs = {
        model,
        phases: new Map(ctx.phase ? [[deal.phase, { name: deal.phase, ...ctx.phase }]] : []),
        clients: new Map(ctx.client && clientId ? [[clientId, ctx.client]] : []),
        vehicles: new Map(ctx.vehicle && caseId ? [[caseId, ctx.vehicle]] : []),
        clientFirstDeal: new Map(ctx.clientFirstDeal !== null && clientId ? [[clientId, ctx.clientFirstDeal]] : []),
        activities: new Map([[deal.id, activities]]),
      };
      return fieldsOf(inputs, ctx.time_zone, { ...deal, client_id: clientId, case_id: caseId }, clock.now().getTime());
    },

    /** After an activity's write: its deals (the one it left and the one it names). */
    refreshDeals: (executor: DbExecutor, teamId: string, dealIds: Array<string | null | undefined>) => {
      const list = [...new Set(dealIds.filter((id): id is string => typeof id === 'string'))];
      return list.length === 0 ? Promise.resolve(0) : refresh(executor, teamId, list);
    },

    /** After a client's write: the deals whose summary names it. */
    async refreshClientDeals(executor: DbExecutor, teamId: string, clientId: string): Promise<number> {
      return refresh(executor, teamId, await repo.dealIdsOfClient(executor, teamId, clientId));
    },

    /** Every deal of the team but the archived (after a training; hourly from the scheduler). */
    refreshTeam: refreshAll,

    /**
     * The scheduler's look: each team's deals at most once an hour (per process; a refresh writes only
     * what changed, so two processes doing it cost a read). Resolves with the deals changed.
     */
    async refreshDue(): Promise<number> {
      const now = clock.now().getTime();
      let changed = 0;
      for (const teamId of await repo.teamsWithDeals(db.kysely)) {
        if (now - (refreshedAt.get(teamId) ?? -Infinity) < HOUR) continue;
        refreshedAt.set(teamId, now);
        changed += await refreshAll(teamId);
      }
      return changed;
    },

    /**
     * Why a deal's probability is what it is (the panel's dialog): the three factors that raise and
     * the three that lower it most, in words. Only for an `ativo` deal the model serves; otherwise the
     * lists are empty and `used` says why (`phase`: the phase's probability; `none`: no model).
     */
    async explainDeal(teamId: string, dealId: string): Promise<DealExplanation> {
      const [deal] = await repo.loadDealFactsForServing(db.kysely, teamId, [dealId]);
      const model = await servingModel(db.kysely, teamId, undefined);
      const used = model?.used ?? 'none';
      if (!deal) return { ai_win_probability: null, used, raising: [], lowering: [] };
      const { inputs } = await batchInputs(db.kysely, teamId, [deal], false);
      const now = clock.now().getTime();
      const facts = { ...deal, case_id: deal.case_id === null ? null : canonicalId(deal.case_id) };
      const probability = deal.status === 'arquivado' ? null : winProbability(inputs, facts, now);
      if (deal.status !== 'ativo' || used !== 'model' || !model?.model) return { ai_win_probability: probability, used, raising: [], lowering: [] };
      const label = (name: string) => inputs.phases.get(name)?.label ?? name;
      return { ai_win_probability: probability, used, ...explain(model.model, servingFeatures(inputs, model.model, facts, now), { phase: label }) };
    },

    /** Forgets a team's cached model (a new one was stored). */
    invalidate: (teamId: string) => void cache.delete(teamId),
  };
}

export type AiServing = ReturnType<typeof createAiServing>;

import { randomBytes } from 'node:crypto';
import { AppError, notFound, validationError } from '../shared/errors.js';
import type { Db } from '../../storage/db.js';
import type { DeliveryAttemptRow, WebhookRow } from '../../storage/database.js';
import { EVENT_TYPES } from '../events/event-types.js';
import { subscribes } from '../events/events.mapper.js';
import { canonicalId, newId } from '../shared/ids.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { toApiTimestamp, toApiTimestampOrNull } from '../shared/time.js';
import type { TeamsService } from '../teams/teams.service.js';
import { queueDelivery } from './deliveries.repository.js';
import { isBlockedHost, targetHostOf } from './target-guard.js';
import * as repo from './webhooks.repository.js';
import type { AttemptView, CreateWebhookInput, DeliveryLogEntry, WebhookHealth, WebhookStatus, WebhookView } from './webhooks.types.js';
import { newEventId } from '../events/events.repository.js';
import type { DealView } from '../deals/deals.types.js';

/** How far back the success rate looks. */
const HEALTH_WINDOW_MS = 30 * 86_400_000;

/** The deal a test event carries: recognisable, and valid against the `deal.created` payload schema. */
function sampleDeal(now: string): DealView {
  const at = toApiTimestamp(now);
  return {
    id: '00000000-0000-4000-8000-000000000000',
    title: 'Evento de teste do painel',
    description: 'Enviado pelo botão "Enviar evento de teste"; não corresponde a um negócio real.',
    value: 100000,
    currency: 'BRL',
    phase: 'lead',
    priority: 'media',
    probability: 10,
    status: 'ativo',
    expected_close_date: null,
    source: null,
    loss_reason: null,
    tags: ['teste'],
    is_starred: false,
    store_id: null,
    client_id: null,
    client: null,
    responsible_id: null,
    case_id: null,
    ai_summary: null,
    ai_win_probability: null,
    created_at: at,
    updated_at: at,
  };
}

/** 256 random bits; the prefix makes a leaked secret easy to recognise. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** The public shape of a webhook: never the secret. */
export function toWebhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    team_id: row.team_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    disabled_reason: row.disabled_reason,
    disabled_at: toApiTimestampOrNull(row.disabled_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

const toAttemptView = (row: DeliveryAttemptRow): AttemptView => ({
  event_id: row.event_id,
  event_type: row.event_type,
  attempt: row.attempt,
  attempted_at: toApiTimestamp(row.attempted_at),
  status_code: row.status_code,
  error_class: row.error_class,
  duration_ms: row.duration_ms,
  response_body: row.response_body,
  next_attempt_at: toApiTimestampOrNull(row.next_attempt_at),
});

/**
 * A valid webhook URL in canonical form. Unless private targets are allowed (an operator's
 * WEBHOOK_ALLOW_PRIVATE_TARGETS), a host that is a loopback name or an IP literal of a private,
 * loopback, link-local or reserved range, in any notation, is refused here, before anything connects.
 */
export function checkWebhookUrl(raw: string, allowPrivateTargets = false): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError('URL do webhook inválida');
  }
  if (url.protocol !== 'https:') throw validationError('A URL do webhook deve usar https://');
  // Credentials in a URL end up in logs and attempt listings; the signature authenticates us instead.
  if (url.username || url.password) throw validationError('A URL do webhook não pode conter usuário ou senha');
  if (raw.length > 2048) throw validationError('A URL do webhook deve ter no máximo 2048 caracteres');
  if (!allowPrivateTargets && isBlockedHost(url.hostname))
    throw validationError(`A URL do webhook aponta para um endereço privado, de loopback ou reservado (${targetHostOf(url)}); use um endereço público`, 'url');
  return url.toString();
}

/** Free text for people (what the endpoint is for); at most 500 characters, blank means none. */
export function checkDescription(raw: string | null | undefined): string | null {
  const text = raw?.trim() ?? '';
  if (text.length > 500) throw validationError('A descrição do webhook deve ter no máximo 500 caracteres', 'description');
  return text || null;
}

export function checkEventTypes(types: string[]): string[] {
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw validationError(`Tipo de evento desconhecido: ${unknown.join(', ')}`);
  return [...new Set(types)];
}

export interface WebhooksServiceOptions {
  teams: Pick<TeamsService, 'find'>;
  clock: Clock;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: URLs naming private, loopback or link-local hosts are accepted (local testing). */
  allowPrivateTargets?: boolean;
}

export function createWebhooksService(db: Db, { teams, clock, allowPrivateTargets = false }: WebhooksServiceOptions) {
  const k = db.kysely;
  const checkUrl = (raw: string) => checkWebhookUrl(raw, allowPrivateTargets);

  async function load(rawId: string): Promise<WebhookRow> {
    const id = canonicalId(rawId);
    const row = id ? await repo.findWebhook(k, id) : undefined;
    if (!row) throw notFound('Webhook não encontrado');
    return row;
  }

  return {
    /** Creates a webhook; the signing secret is in the result and is shown again only on rotation. */
    async create(input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
      const team = await teams.find(input.teamId);
      if (!team) throw notFound('Time não encontrado');
      const now = isoNow(clock);
      const row: WebhookRow = {
        id: newId(),
        team_id: team.id,
        url: checkUrl(input.url),
        events: JSON.stringify(checkEventTypes(input.events ?? [])),
        secret: newSecret(),
        status: 'enabled',
        disabled_reason: null,
        disabled_at: null,
        last_success_at: null,
        created_at: now,
        updated_at: now,
        description: checkDescription(input.description),
        store_id: null,
      };
      await repo.insertWebhook(k, { ...row, created_at: now, updated_at: now, disabled_at: null, last_success_at: null });
      return { ...toWebhookView(row), secret: row.secret };
    },

    async list(teamId: string): Promise<WebhookView[]> {
      const team = await teams.find(teamId);
      if (!team) throw notFound('Time não encontrado');
      return (await repo.listWebhooks(k, team.id)).map(toWebhookView);
    },

    async get(rawId: string): Promise<WebhookView> {
      return toWebhookView(await load(rawId));
    },

    /** The signing secret, for an owner who needs it again (the panel; never listed or logged). */
    async revealSecret(rawId: string): Promise<{ id: string; team_id: string; secret: string }> {
      const row = await load(rawId);
      return { id: row.id, team_id: row.team_id, secret: row.secret };
    },

    /**
     * Queues a test event to this webhook only: a \`deal.created\` whose deal is a recognisable sample.
     * It is an ordinary delivery (signed, retried, in the log), recorded as addressed to this webhook,
     * so a resend to every webhook and another webhook's recovery never send it.
     */
    async sendTest(rawId: string): Promise<{ event_id: string; webhook_id: string }> {
      const hook = await load(rawId);
      if (hook.status !== 'enabled') throw new AppError(422, 'VALIDATION_ERROR', 'Ative o webhook para enviar um evento de teste');
      const now = isoNow(clock);
      const id = newEventId();
      await k.transaction().execute(async (trx) => {
        await repo.insertTestEvent(
          trx,
          { id, team_id: hook.team_id, type: 'deal.created', object: JSON.stringify(sampleDeal(now)), previous_attributes: null, created_at: now },
          hook.id,
        );
        await queueDelivery(trx, hook.team_id, hook.id, id, now);
      });
      return { event_id: id, webhook_id: hook.id };
    },

    /** A page of the webhook's deliveries, newest first, each with its attempts in order. */
    async deliveries(rawId: string, page: number, limit: number): Promise<{ data: DeliveryLogEntry[]; total: number }> {
      const hook = await load(rawId);
      const [rows, total] = await Promise.all([repo.listDeliveries(k, hook.id, limit, (page - 1) * limit), repo.countDeliveries(k, hook.id)]);
      const attempts = await repo.attemptsOfDeliveries(
        k,
        rows.map((r) => r.id),
      );
      const data = rows.map((r) => ({
        id: r.id,
        event_id: r.event_id,
        event_type: r.event_type,
        status: r.status,
        attempts_count: r.attempts,
        next_attempt_at: r.status === 'pending' ? toApiTimestampOrNull(r.next_attempt_at) : null,
        last_attempt_at: toApiTimestampOrNull(r.last_attempt_at),
        completed_at: toApiTimestampOrNull(r.completed_at),
        created_at: toApiTimestamp(r.created_at),
        attempts: attempts
          .filter((a) => a.delivery_id === r.id)
          .map((a) => {
            const { event_id: _e, event_type: _t, ...rest } = toAttemptView(a);
            return rest;
          }),
      }));
      return { data, total };
    },

    /** Sends one delivery of this webhook again (its event, to this webhook). */
    async resendDelivery(rawWebhookId: string, rawDeliveryId: string): Promise<{ event_id: string; webhook_ids: string[] }> {
      const hook = await load(rawWebhookId);
      const id = canonicalId(rawDeliveryId);
      const delivery = id ? await repo.findDelivery(k, id) : undefined;
      if (!delivery || delivery.webhook_id !== hook.id) throw notFound('Entrega não encontrada');
      return this.resend(delivery.event_id, hook.id);
    },

    /** What the panel shows beside each webhook of the team: its description, success rate (30 days) and latest attempt. */
    async health(teamId: string): Promise<Map<string, WebhookHealth>> {
      const hooks = await repo.listWebhooks(k, teamId);
      const since = new Date(clock.now().getTime() - HEALTH_WINDOW_MS).toISOString();
      const outcomes = await repo.deliveryOutcomes(k, teamId, since);
      const result = new Map<string, WebhookHealth>();
      for (const hook of hooks) {
        const count = (status: string) => Number(outcomes.find((o) => o.webhook_id === hook.id && o.status === status)?.n ?? 0);
        const ok = count('succeeded');
        const finished = ok + count('failed');
        const last = await repo.lastAttempt(k, hook.id);
        result.set(hook.id, {
          description: hook.description,
          success_rate: finished === 0 ? null : Math.round((ok / finished) * 1000) / 1000,
          last_delivery_at: last ? toApiTimestamp(last.attempted_at) : null,
          last_delivery_status: last?.status_code ?? null,
          last_delivery_ok: last ? last.status_code !== null && last.status_code >= 200 && last.status_code < 300 : null,
        });
      }
      return result;
    },

    async setStatus(rawId: string, status: WebhookStatus): Promise<WebhookView> {
      const row = await load(rawId);
      const now = isoNow(clock);
      const patch =
        status === 'enabled'
          ? { status, disabled_reason: null, disabled_at: null, updated_at: now }
          : { status, disabled_reason: 'desativado manualmente', disabled_at: now, updated_at: now };
      return toWebhookView((await repo.updateWebhook(k, row.id, patch))!);
    },

    /** A new secret takes effect on the next attempt; the old one stops signing at once. */
    async rotateSecret(rawId: string): Promise<WebhookView & { secret: string }> {
      const row = await load(rawId);
      const secret = newSecret();
      const updated = await repo.updateWebhook(k, row.id, { secret, updated_at: isoNow(clock) });
      return { ...toWebhookView(updated!), secret };
    },

    async attempts(rawId: string, limit = 100): Promise<AttemptView[]> {
      const row = await load(rawId);
      return (await repo.listAttempts(k, row.id, limit)).map(toAttemptView);
    },

    /** Sends one event again: to the given webhook, or to every enabled webhook of its team that takes its type. */
    async resend(eventId: string, webhookId?: string): Promise<{ event_id: string; webhook_ids: string[] }> {
      const event = await repo.findEvent(k, eventId);
      if (!event) throw notFound('Evento não encontrado');
      let targets: WebhookRow[];
      if (webhookId) {
        const hook = await load(webhookId);
        if (hook.team_id !== event.team_id) throw notFound('Webhook não encontrado');
        targets = [hook];
      } else {
        // A test event goes only to the webhook it was sent to.
        const only = (await repo.testEventTarget(k, event.id))?.webhook_id;
        targets = (await repo.listWebhooks(k, event.team_id)).filter(
          (h) => h.status === 'enabled' && subscribes(h.events, event.type) && (only === undefined || h.id === only),
        );
      }
      await k.transaction().execute(async (trx) => {
        for (const hook of targets) await queueDelivery(trx, event.team_id, hook.id, event.id, isoNow(clock));
      });
      return { event_id: event.id, webhook_ids: targets.map((t) => t.id) };
    },

    /** Queues every event since `since` that this webhook takes and has not received (after an outage). */
    async recover(rawId: string, since: string): Promise<{ webhook_id: string; queued: number; status: WebhookView['status'] }> {
      const hook = await load(rawId);
      const sinceDate = new Date(since);
      if (Number.isNaN(sinceDate.getTime())) throw validationError('--since deve ser uma data/hora ISO 8601, por exemplo 2026-11-22T10:00:00Z');
      const events = (await repo.undeliveredEventsSince(k, hook.id, hook.team_id, sinceDate.toISOString())).filter((e) => subscribes(hook.events, e.type));
      await k.transaction().execute(async (trx) => {
        for (const event of events) await queueDelivery(trx, hook.team_id, hook.id, event.id, isoNow(clock));
      });
      return { webhook_id: hook.id, queued: events.length, status: hook.status };
    },

    /** One of the team's webhooks (another team's is unknown: 404). */
    async getForTeam(teamId: string, rawId: string): Promise<WebhookView> {
      const row = await load(rawId);
      if (row.team_id !== teamId) throw notFound('Webhook não encontrado');
      return toWebhookView(row);
    },

    /** Changes the URL, the event selection and/or the status of one of the team's webhooks. */
    async updateForTeam(
      teamId: string,
      rawId: string,
      input: { url?: string; events?: string[]; status?: WebhookStatus; description?: string | null },
    ): Promise<WebhookView> {
      const row = await load(rawId);
      if (row.team_id !== teamId) throw notFound('Webhook não encontrado');
      if (input.url === undefined && input.events === undefined && input.status === undefined && input.description === undefined)
        throw validationError('Nenhum campo para atualizar');
      const now = isoNow(clock);
      const patch: Parameters<typeof repo.updateWebhook>[2] = { updated_at: now };
      if (input.url !== undefined) patch.url = checkUrl(input.url);
      if (input.events !== undefined) patch.events = JSON.stringify(checkEventTypes(input.events));
      // The panel's free text (the public API does not send it).
      if (input.description !== undefined) patch.description = checkDescription(input.description);
      if (input.status !== undefined && input.status !== row.status) {
        Object.assign(
          patch,
          input.status === 'enabled'
            ? { status: 'enabled', disabled_reason: null, disabled_at: null }
            : { status: 'disabled', disabled_reason: 'desativado manualmente', disabled_at: now },
        );
      }
      return toWebhookView((await repo.updateWebhook(k, row.id, patch))!);
    },

    /** Deletes one of the team's webhooks with its pending deliveries and attempt log. */
    async removeForTeam(teamId: string, rawId: string): Promise<{ id: string }> {
      const row = await load(rawId);
      if (row.team_id !== teamId) throw notFound('Webhook não encontrado');
      await repo.deleteWebhook(k, row.id);
      return { id: row.id };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

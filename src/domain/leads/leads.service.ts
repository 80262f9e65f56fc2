import type { Db } from '../../storage/db.js';
import type { Trx } from '../../storage/executor.js';
import { emailKey, phoneKey } from '../../storage/contact-keys.js';
import { uniqueViolationIndex } from '../../storage/unique-violation.js';
import type { ActivitiesService } from '../activities/activities.service.js';
import type { ClientsService } from '../clients/clients.service.js';
import type { ClientUpdateInput, ClientView } from '../clients/clients.types.js';
import type { DealsService } from '../deals/deals.service.js';
import type { Scope } from '../reads/scope.js';
import { isoNow, type Clock } from '../shared/clock.js';
import { AppError, checkAllNow, duplicateEntry, messages, validationError } from '../shared/errors.js';
import { canonicalId, newId } from '../shared/ids.js';
import { fromCents } from '../shared/money.js';
import { isValidCnpj, isValidCpf, normalizeTaxId } from '../shared/tax-id.js';
import type { WriteOptions } from '../shared/write-options.js';
import { canonicalPlate } from '../vehicles/vehicle-identifiers.js';
import { pickResponsible, readLeadSettings, writeLeadSettings } from './lead-distribution.js';
import * as repo from './leads.repository.js';
import { DUPLICATE_WINDOW_DAYS, type LeadInput, type LeadOutcome, type LeadResult, type LeadSettings, type LeadSettingsInput } from './leads.types.js';

export const leadMessages = {
  contactRequired: 'Informe um e-mail ou telefone',
  taxIdBoth: 'Informe CPF ou CNPJ, não ambos',
  noteTitle: 'Nova mensagem do lead',
  callTitle: 'Responder lead',
} as const;

const CONTACT_FIELDS = ['email', 'phone', 'mobile_phone', 'whatsapp'] as const;
/** A CPF/CNPJ taken by a concurrent lead, or two copies of one lead at once: the write is tried again this many times. */
const ATTEMPTS = 3;
const DAY_MS = 86_400_000;

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** Every invalid field at once, before anything is written. */
function checkLead(input: LeadInput): void {
  checkAllNow(
    () => {
      if (!CONTACT_FIELDS.some((f) => present(input[f]))) throw validationError(leadMessages.contactRequired, 'email');
    },
    () => {
      if (present(input.cpf) && present(input.cnpj)) throw validationError(leadMessages.taxIdBoth, 'cnpj');
    },
    () => {
      if (present(input.cpf) && !isValidCpf(input.cpf)) throw validationError(messages.cpfInvalid, 'cpf');
    },
    () => {
      if (present(input.cnpj) && !isValidCnpj(input.cnpj)) throw validationError(messages.cnpjInvalid, 'cnpj');
    },
  );
}

/** The deal's description: the message, the car offered in exchange and the financing wish. */
function descriptionOf(input: LeadInput): string | null {
  const parts = [
    present(input.message) ? input.message.trim() : null,
    present(input.trade_in) ? `Carro na troca: ${input.trade_in.trim()}` : null,
    input.wants_financing == null ? null : `Quer financiamento: ${input.wants_financing ? 'sim' : 'não'}`,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join('\n\n') : null;
}

type Deps = {
  clock: Clock;
  clients: Pick<ClientsService, 'createIn' | 'updateIn' | 'findIn'>;
  deals: Pick<DealsService, 'createIn' | 'findIn'>;
  activities: Pick<ActivitiesService, 'createIn'>;
};

/** POST /leads (DECISIONS.md, Leads): one call finds or creates the client, opens or joins the deal, assigns a seller, schedules the answer. */
export function createLeadsService(db: Db, { clock, clients, deals, activities }: Deps) {
  const k = db.kysely;
  const lockRows = db.dialect === 'postgres';

  /** The client the lead names in the caller's book: by CPF/CNPJ, else e-mail ignoring case, else any phone's digits. */
  async function matchClient(trx: Trx, scope: Scope, input: LeadInput) {
    const taxIds = { cpf: present(input.cpf) ? normalizeTaxId(input.cpf) : null, cnpj: present(input.cnpj) ? normalizeTaxId(input.cnpj) : null };
    const email = emailKey(input.email);
    const phones = [...new Set([input.phone, input.mobile_phone, input.whatsapp].map(phoneKey).filter((p): p is string => p !== null))];
    const keys: repo.ClientKey[] = [];
    if (taxIds.cpf) keys.push({ column: 'cpf_normalized', value: taxIds.cpf });
    if (taxIds.cnpj) keys.push({ column: 'cnpj_normalized', value: taxIds.cnpj });
    if (email) keys.push({ column: 'email_key', value: email });
    if (phones.length) keys.push({ column: 'phones', values: phones });
    for (const key of keys) {
      const found = await repo.findClientByKey(trx, scope, key, taxIds);
      if (found) return found.id;
    }
    return null;
  }

  /** The found client with the contact fields it lacks filled in from the lead (never overwritten). */
  async function fillIn(trx: Trx, teamId: string, clientId: string, input: LeadInput): Promise<ClientView> {
    const current = await clients.findIn(trx, teamId, clientId, lockRows);
    const patch: ClientUpdateInput = {};
    for (const field of CONTACT_FIELDS) {
      const sent = input[field];
      if (present(sent) && !present(current[field])) patch[field] = sent.trim();
    }
    return Object.keys(patch).length ? clients.updateIn(trx, teamId, current.id, patch) : current;
  }

  async function vehicleOf(trx: Trx, scope: Scope, input: LeadInput) {
    if (present(input.vehicle_id)) {
      const id = canonicalId(input.vehicle_id);
      const vehicle = id ? await repo.findStockVehicle(trx, scope, { id }) : undefined;
      if (!vehicle) throw validationError(messages.vehicleNotFound, 'vehicle_id');
      return vehicle;
    }
    if (present(input.plate)) {
      const plateKey = canonicalPlate(input.plate);
      const vehicle = plateKey ? await repo.findStockVehicle(trx, scope, { plateKey }) : undefined;
      if (!vehicle) throw validationError(messages.vehicleNotFound, 'plate');
      return vehicle;
    }
    return null;
  }

  async function receiveIn(trx: Trx, scope: Scope, input: LeadInput): Promise<{ lead: repo.NewLead; outcome: LeadOutcome }> {
    const { teamId } = scope;
    const stamp = isoNow(clock);
    const source = present(input.source) ? input.source.trim() : null;
    // First, so a second copy of the same source + external_id waits here for this one and then fails on the unique index.
    const lead: repo.NewLead = {
      id: newId(),
      team_id: teamId,
      source: source ?? '',
      external_id: present(input.external_id) ? input.external_id : null,
      received_at: stamp,
    };
    await repo.insertLead(trx, lead);

    const vehicle = await vehicleOf(trx, scope, input);
    const matched = await matchClient(trx, scope, input);
    let client: ClientView;
    if (matched) client = await fillIn(trx, teamId, matched, input);
    else {
      const contact = Object.fromEntries(CONTACT_FIELDS.filter((f) => present(input[f])).map((f) => [f, input[f]!.trim()]));
      client = await clients.createIn(trx, teamId, {
        ...contact,
        ...(present(input.cnpj) ? { type: 'PJ', cnpj: input.cnpj } : { type: 'PF', cpf: present(input.cpf) ? input.cpf : null }),
        name: input.name.trim(),
        source,
        store_id: input.store_id ?? vehicle?.store_id ?? null,
      });
    }

    const since = new Date(clock.now().getTime() - DUPLICATE_WINDOW_DAYS * DAY_MS).toISOString();
    const same = vehicle ? { caseId: vehicle.id } : { source };
    const earlier = matched ? await repo.findRecentActiveDeal(trx, teamId, client.id, since, same) : undefined;
    if (earlier) {
      const deal = await deals.findIn(trx, teamId, earlier.id);
      await activities.createIn(trx, teamId, {
        type: 'note',
        title: leadMessages.noteTitle,
        description: descriptionOf(input),
        deal_id: deal.id,
        client_id: client.id,
        responsible_id: deal.responsible_id,
      });
      const result: LeadResult = { deal, client, client_created: false, duplicate: true, responsible_id: deal.responsible_id };
      return { lead, outcome: { status: 200, result } };
    }

    const storeId = input.store_id ?? vehicle?.store_id ?? null;
    const settings = await repo.findLeadSettings(trx, teamId);
    const responsibleId = await pickResponsible(trx, teamId, settings, storeId);
    const name = input.name.trim();
    const deal = await deals.createIn(
      trx,
      teamId,
      {
        title: vehicle ? `${vehicle.title} — ${name}` : `Lead${source ? ` ${source}` : ''} — ${name}`,
        description: descriptionOf(input),
        value: input.value ?? fromCents(vehicle?.price_cents ?? null),
        client_id: client.id,
        responsible_id: responsibleId,
        source,
        store_id: storeId,
        case_id: vehicle?.id ?? null,
        tags: input.tags ?? [],
      },
      { leadReceivedAt: stamp },
    );
    const minutes = settings?.lead_response_minutes ?? 15;
    await activities.createIn(trx, teamId, {
      type: 'call',
      title: leadMessages.callTitle,
      description: present(input.message) ? input.message.trim() : null,
      due_at: new Date(clock.now().getTime() + minutes * 60_000).toISOString(),
      deal_id: deal.id,
      client_id: client.id,
      vehicle_id: vehicle?.id ?? null,
      responsible_id: responsibleId,
    });
    const result: LeadResult = { deal, client, client_created: !matched, duplicate: false, responsible_id: responsibleId };
    return { lead, outcome: { status: 201, result } };
  }

  return {
    /** The team's lead settings (distribution, fixed user, response target). */
    settings: (teamId: string): Promise<LeadSettings> => readLeadSettings(k, teamId),

    /** Changes the team's lead settings (Settings -> Leads, `autosales teams settings`). */
    updateSettings: (teamId: string, input: LeadSettingsInput): Promise<LeadSettings> => writeLeadSettings(k, teamId, input),

    /**
     * Receives a lead in one transaction. The same `source` + `external_id` again (also at the same
     * moment) answers the first result with 200 and writes nothing.
     */
    async receive(scope: Scope, input: LeadInput, options: WriteOptions<LeadOutcome> = {}): Promise<LeadOutcome> {
      checkLead(input);
      for (let attempt = 1; ; attempt++) {
        try {
          return await k.transaction().execute(async (trx) => {
            const { lead, outcome } = await receiveIn(trx, scope, input);
            const { deal, client } = outcome.result;
            await repo.completeLead(trx, lead.id, {
              deal_id: deal.id,
              client_id: client.id,
              client_created: outcome.result.client_created ? 1 : 0,
              duplicate: outcome.result.duplicate ? 1 : 0,
              responsible_id: outcome.result.responsible_id,
              store_id: deal.store_id,
              answer: JSON.stringify(outcome.result),
            });
            await options.inTransaction?.(trx, outcome);
            return outcome;
          });
        } catch (error) {
          const index = uniqueViolationIndex(error);
          if (index === null) throw error;
          if (index.includes('external')) {
            const first = await repo.findLeadAnswer(k, scope.teamId, present(input.source) ? input.source.trim() : '', input.external_id!);
            if (first?.answer) return { status: 200, result: JSON.parse(first.answer) as LeadResult };
          }
          // A CPF/CNPJ a concurrent lead just took: the next attempt finds that client.
          const taxClash = index.includes('cpf') || index.includes('cnpj');
          if (!taxClash || attempt >= ATTEMPTS) {
            if (index.includes('cnpj')) throw duplicateEntry(messages.cnpjTaken, 'cnpj');
            if (index.includes('cpf')) throw duplicateEntry(messages.cpfTaken, 'cpf');
            if (index.includes('external'))
              throw new AppError(409, 'IDEMPOTENCY_CONFLICT', 'Este lead ainda está sendo recebido; tente novamente em instantes');
            throw error;
          }
        }
      }
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;

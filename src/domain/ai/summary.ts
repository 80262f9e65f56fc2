import { DAY_MS, type ActivityFact, type Ms } from './ai.types.js';
import type { DealFacts } from './serving.js';

/** At most this many characters (DECISIONS: "ai_summary ... at most 280 characters"). */
export const SUMMARY_MAX = 280;
/** Days without a contact from which the summary warns. */
export const NO_CONTACT_WARNING_DAYS = 7;

const ACTIVITY_WORDS: Record<string, string> = {
  task: 'tarefa',
  deadline: 'prazo',
  meeting: 'reunião',
  call: 'ligação',
  email: 'e-mail',
  note: 'nota',
};

export interface SummaryInput {
  deal: DealFacts;
  /** The deal's client's name, read in its own team (null: none linked). */
  clientName: string | null;
  /** The car its `case_id` names in its own team (null: none). */
  vehicleTitle: string | null;
  phaseLabel: string;
  activities: readonly ActivityFact[];
  /** The team's IANA time zone: the day a next contact falls on. */
  timeZone: string;
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** R$ 98.500 or R$ 98.500,50: the Brazilian way, built by hand so the text never depends on ICU data. */
export function formatReais(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = abs % 100;
  return `${negative ? '-' : ''}R$ ${reais}${rest ? `,${rest.toString().padStart(2, '0')}` : ''}`;
}

const ago = (days: number): string => (days <= 0 ? 'hoje' : days === 1 ? 'há 1 dia' : `há ${days} dias`);
const wholeDays = (ms: number): number => Math.max(0, Math.floor(ms / DAY_MS));

function dayOf(at: Ms, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', timeZone: 'UTC' }).format(at);
  }
}

/**
 * `ai_summary`: who, which car and price, phase and for how long, last and next contact, and risk
 * signals, from templates (no language model), never over 280 characters. Names only what the deal
 * itself links in its own team (the caller reads client and car by the deal's team).
 */
export function summarize(input: SummaryInput, now: Ms): string {
  // Long names give way first (60, then 30, then 20 characters each), so the sentences stay whole.
  for (const names of [60, 30]) {
    const text = compose(input, now, names);
    if (text.length <= SUMMARY_MAX) return text;
  }
  return clip(compose(input, now, 20), SUMMARY_MAX);
}

function compose({ deal, clientName, vehicleTitle, phaseLabel, activities, timeZone }: SummaryInput, now: Ms, names: number): string {
  const who = clientName ? clip(clientName, names) : 'Cliente não informado';
  const car = vehicleTitle ? clip(vehicleTitle, names) : null;
  const price = deal.value_cents !== null ? formatReais(deal.value_cents) : null;
  let head = who;
  if (car && price) head += `, ${car} por ${price}`;
  else if (car) head += `, ${car}`;
  else if (price) head += `, ${price}`;

  const parts = [`${head}.`];
  if (deal.status === 'ganho') parts.push('Ganho.');
  else if (deal.status === 'perdido') parts.push(deal.loss_reason ? `Perdido (motivo: ${clip(deal.loss_reason, names)}).` : 'Perdido.');
  else {
    const inPhase = wholeDays(now - deal.phase_changed_at);
    parts.push(`Em ${clip(phaseLabel, 30)} ${inPhase === 0 ? 'desde hoje' : ago(inPhase)}.`);
  }

  let last: ActivityFact | null = null;
  let next: ActivityFact | null = null;
  let overdue = 0;
  for (const a of activities) {
    if (a.created_at > now) continue;
    if (a.completed_at !== null && a.completed_at <= now) {
      if (!last || a.completed_at > last.completed_at!) last = a;
    } else if (a.cancelled_at === null && a.due_at !== null) {
      if (a.due_at < now) overdue++;
      else if (!next || a.due_at < next.due_at!) next = a;
    }
  }
  const lastText = last
    ? `Último contato ${ago(wholeDays(now - last.completed_at!))} (${ACTIVITY_WORDS[last.type] ?? last.type})`
    : 'Nenhum contato registrado';
  if (deal.status !== 'ativo') parts.push(`${lastText}.`);
  else {
    parts.push(`${lastText}; ${next ? `próximo: ${ACTIVITY_WORDS[next.type] ?? next.type} em ${dayOf(next.due_at!, timeZone)}` : 'nada agendado'}.`);
    const risks: string[] = [];
    const silent = wholeDays(now - (last ? last.completed_at! : deal.created_at));
    if (silent >= NO_CONTACT_WARNING_DAYS) risks.push(`sem contato ${ago(silent)}`);
    if (overdue > 0) risks.push(overdue === 1 ? '1 atividade atrasada' : `${overdue} atividades atrasadas`);
    if (deal.expected_close_date && Date.parse(`${deal.expected_close_date}T23:59:59Z`) < now) risks.push('previsão de fechamento vencida');
    if (risks.length > 0) parts.push(`Atenção: ${risks.join(', ')}.`);
  }
  return parts.join(' ');
}

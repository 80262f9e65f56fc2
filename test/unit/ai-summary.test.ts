import { describe, expect, it } from 'vitest';
import type { ActivityFact } from '../../src/domain/ai/ai.types.js';
import type { DealFacts } from '../../src/domain/ai/serving.js';
import { formatReais, summarize, SUMMARY_MAX, type SummaryInput } from '../../src/domain/ai/summary.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-28T15:00:00.000Z');
const at = (daysAgo: number) => NOW - daysAgo * DAY;

function deal(over: Partial<DealFacts> = {}): DealFacts {
  return {
    id: 'd1',
    title: 'Corolla',
    status: 'ativo',
    phase: 'negociacao',
    value_cents: 9_850_000,
    source: 'indicacao',
    priority: 'media',
    client_id: 'c1',
    responsible_id: null,
    case_id: 'v1',
    store_id: null,
    expected_close_date: null,
    loss_reason: null,
    created_at: at(30),
    phase_changed_at: at(12),
    ...over,
  };
}

const done = (daysAgo: number, type = 'call'): ActivityFact => ({
  type,
  created_at: at(daysAgo + 1),
  due_at: at(daysAgo),
  completed_at: at(daysAgo),
  cancelled_at: null,
});
const pending = (dueInDays: number, type = 'meeting'): ActivityFact => ({
  type,
  created_at: at(5),
  due_at: NOW + dueInDays * DAY,
  completed_at: null,
  cancelled_at: null,
});

function input(over: Partial<SummaryInput> = {}): SummaryInput {
  return {
    deal: deal(),
    clientName: 'Maria Souza',
    vehicleTitle: 'Corolla XEi 2020',
    phaseLabel: 'Negociação',
    activities: [],
    timeZone: 'America/Sao_Paulo',
    ...over,
  };
}

describe('ai_summary (deterministic templates)', () => {
  it('who, which car and price, phase and for how long, last and next contact', () => {
    const text = summarize(input({ activities: [done(3), pending(4), done(10, 'meeting')] }), NOW);
    expect(text).toBe('Maria Souza, Corolla XEi 2020 por R$ 98.500. Em Negociação há 12 dias. Último contato há 3 dias (ligação); próximo: reunião em 02/12.');
  });

  it('risk signals: no contact for N days, overdue activities, a passed expected close', () => {
    const text = summarize(
      input({
        deal: deal({ expected_close_date: '2026-11-20', value_cents: 4_999_990 }),
        activities: [done(9), pending(-2, 'call'), pending(-1, 'task')],
      }),
      NOW,
    );
    expect(text).toBe(
      'Maria Souza, Corolla XEi 2020 por R$ 49.999,90. Em Negociação há 12 dias. Último contato há 9 dias (ligação); nada agendado. Atenção: sem contato há 9 dias, 2 atividades atrasadas, previsão de fechamento vencida.',
    );
  });

  it('a deal never contacted counts its silence from its creation; nothing linked says so', () => {
    const text = summarize(
      input({ deal: deal({ value_cents: null, phase_changed_at: at(0.2) }), clientName: null, vehicleTitle: null, phaseLabel: 'Lead' }),
      NOW,
    );
    expect(text).toBe('Cliente não informado. Em Lead desde hoje. Nenhum contato registrado; nada agendado. Atenção: sem contato há 30 dias.');
  });

  it('closed deals: the outcome (and the loss reason), the last contact, no risks', () => {
    expect(summarize(input({ deal: deal({ status: 'ganho' }), activities: [done(1, 'meeting')] }), NOW)).toBe(
      'Maria Souza, Corolla XEi 2020 por R$ 98.500. Ganho. Último contato há 1 dia (reunião).',
    );
    expect(summarize(input({ deal: deal({ status: 'perdido', loss_reason: 'preço' }), vehicleTitle: null, activities: [pending(-3)] }), NOW)).toBe(
      'Maria Souza, R$ 98.500. Perdido (motivo: preço). Nenhum contato registrado.',
    );
  });

  it('cancelled activities and ones created later are not read; never over 280 characters', () => {
    const cancelled: ActivityFact = { type: 'call', created_at: at(4), due_at: at(2), completed_at: null, cancelled_at: at(3) };
    const future: ActivityFact = { type: 'call', created_at: NOW + DAY, due_at: NOW + 2 * DAY, completed_at: null, cancelled_at: null };
    expect(summarize(input({ activities: [cancelled, future, done(0)] }), NOW)).toBe(
      'Maria Souza, Corolla XEi 2020 por R$ 98.500. Em Negociação há 12 dias. Último contato hoje (ligação); nada agendado.',
    );
    const long = summarize(
      input({
        clientName: 'Maria '.repeat(40),
        vehicleTitle: 'Carro '.repeat(40),
        phaseLabel: 'Fase '.repeat(20),
        deal: deal({ expected_close_date: '2026-01-01' }),
        activities: [done(20), pending(-1), pending(-2)],
      }),
      NOW,
    );
    expect(long.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(long).toContain('Maria Maria');
    expect(long.endsWith('.')).toBe(true);
  });

  it('formats reais the Brazilian way without ICU', () => {
    expect(formatReais(0)).toBe('R$ 0');
    expect(formatReais(150_000_050)).toBe('R$ 1.500.000,50');
    expect(formatReais(99)).toBe('R$ 0,99');
  });
});

import type { RawFeatures, StoredModel } from './ai.types.js';

/** One reason the probability is what it is, in words, and how much it moves the score (log-odds). */
export interface Factor {
  feature: string;
  text: string;
  effect: number;
}

export interface Explanation {
  /** The three that raise the probability most, strongest first. */
  raising: Factor[];
  /** The three that lower it most, strongest first. */
  lowering: Factor[];
}

const days = (logDays: number): number => Math.round(Math.expm1(logDays));
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const percent = (x: number) => `${Math.round(Math.abs(x) * 100)}%`;

/** The words for a feature as this deal has it (null: nothing worth saying, e.g. a one-hot it lacks). */
export function describeFeature(name: string, value: number, labels: { phase: (name: string) => string }): string | null {
  const [kind, level] = name.includes('=') ? (name.split('=', 2) as [string, string]) : [name, ''];
  if (kind !== name && value === 0) return null;
  switch (kind) {
    case 'phase':
      return `fase: ${labels.phase(level)}`;
    case 'source':
      return `origem: ${level}`;
    case 'segment':
      return `segmento do cliente: ${level}`;
    case 'log_days_in_phase':
      return `na fase há ${plural(days(value), 'dia', 'dias')}`;
    case 'log_age_days':
      return `aberto há ${plural(days(value), 'dia', 'dias')}`;
    case 'value_vs_median': {
      const ratio = Math.exp(value) - 1;
      return Math.abs(ratio) < 0.05 ? 'valor perto da mediana do time' : `valor ${percent(ratio)} ${ratio > 0 ? 'acima' : 'abaixo'} da mediana do time`;
    }
    case 'value_vs_car_price':
      return Math.abs(value) < 0.01 ? 'valor igual ao preço do carro' : `valor ${percent(value)} ${value > 0 ? 'acima' : 'abaixo'} do preço do carro`;
    case 'log_days_in_stock':
      return `carro há ${plural(days(value), 'dia', 'dias')} em estoque`;
    case 'log_activities_done':
      return days(value) === 0 ? 'nenhum contato feito' : plural(days(value), 'contato feito', 'contatos feitos');
    case 'log_days_without_contact':
      return days(value) === 0 ? 'contato hoje' : `sem contato há ${plural(days(value), 'dia', 'dias')}`;
    case 'log_overdue':
      return days(value) === 0 ? 'nenhuma atividade atrasada' : plural(days(value), 'atividade atrasada', 'atividades atrasadas');
    case 'next_scheduled':
      return value ? 'próximo contato agendado' : 'nenhum contato agendado';
    case 'responsible_rate':
      return Math.abs(value) < 0.05 ? null : `taxa de ganho do responsável ${value > 0 ? 'acima' : 'abaixo'} da do time`;
    case 'store_rate':
      return Math.abs(value) < 0.05 ? null : `taxa de ganho da loja ${value > 0 ? 'acima' : 'abaixo'} da do time`;
    case 'days_to_expected_close': {
      const d = Math.round(value * 30);
      return d >= 0 ? `fechamento previsto em ${plural(d, 'dia', 'dias')}` : `fechamento previsto há ${plural(-d, 'dia', 'dias')}`;
    }
  }
  if (!value) return null;
  const flags: Record<string, string> = {
    value_missing: 'sem valor',
    car_linked: 'carro vinculado',
    source_missing: 'sem origem',
    client_missing: 'sem cliente',
    returning_client: 'cliente que já negociou antes',
    never_contacted: 'nunca contatado',
    priority_alta: 'prioridade alta',
    priority_baixa: 'prioridade baixa',
    close_date_passed: 'previsão de fechamento vencida',
    close_date_missing: 'sem previsão de fechamento',
  };
  return flags[kind] ?? null;
}

/**
 * The factors that raise and lower a deal's probability most: each feature's part of the score,
 * weight × (value − the training mean) ÷ its spread, times the calibration's slope, so "raises"
 * means "raises against an average deal of the team". Features the deal lacks (a source it does not
 * have) are not reasons; two texts that say the same thing keep the stronger.
 */
export function explain(model: StoredModel, raw: RawFeatures, labels: { phase: (name: string) => string }, top = 3): Explanation {
  const factors: Factor[] = [];
  model.spec.names.forEach((name, j) => {
    const value = raw[name] ?? 0;
    const text = describeFeature(name, value, labels);
    if (text === null) return;
    const effect = model.platt.a * model.logistic.weights[j]! * ((value - model.spec.means[j]!) / model.spec.stds[j]!);
    if (Math.abs(effect) < 0.01) return;
    factors.push({ feature: name, text, effect: Math.round(effect * 1000) / 1000 });
  });
  const seen = new Set<string>();
  const strongest = (list: Factor[]) =>
    list
      .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect))
      .filter((f) => (seen.has(f.text) ? false : (seen.add(f.text), true)))
      .slice(0, top);
  return { raising: strongest(factors.filter((f) => f.effect > 0)), lowering: strongest(factors.filter((f) => f.effect < 0)) };
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTime.format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateOnly.format(d);
}

/** "há 5 minutos", "ontem"…; falls back to the date past a week. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const seconds = Math.round((t - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'agora mesmo';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
  return formatDate(iso);
}

export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  // Accept both 0–1 and 0–100.
  const pct = rate <= 1 ? rate * 100 : rate;
  return `${pct.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '?';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const moneyShort = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact', maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat('pt-BR');

export function formatMoney(value: number | null | undefined, short = false): string {
  if (value === null || value === undefined) return '—';
  return (short ? moneyShort : money).format(value);
}

export function formatInt(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return integer.format(value);
}

/** A `YYYY-MM-DD` day as the store reads it, without a time-zone shift. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : formatDate(day);
}

/** Display names of the default phases (stored without accents, as the API takes them). */
const PHASE_LABELS: Record<string, string> = {
  lead: 'Lead',
  qualificado: 'Qualificado',
  proposta: 'Proposta',
  negociacao: 'Negociação',
  fechamento: 'Fechamento',
  entrada: 'Entrada',
  preparacao: 'Preparação',
  documentacao: 'Documentação',
  disponivel: 'Disponível',
  reservado: 'Reservado',
};

/**
 * A phase as the store reads it: the default phases with their accents ("negociacao" → "Negociação"),
 * any other name with a capital first letter and `_` as a space ("test_drive" → "Test drive").
 * Only the display changes: the stored name is what the API and every request use.
 */
export function phaseLabel(name: string): string {
  const known = PHASE_LABELS[name];
  if (known) return known;
  const spaced = name.replace(/_+/g, ' ').trim();
  return spaced ? spaced[0]!.toLocaleUpperCase('pt-BR') + spaced.slice(1) : name;
}

/** A lead's waiting time from the server's whole minutes: "há 12 min", "há 2 h 05 min", "há 3 dias". */
export function formatWaiting(minutes: number): string {
  if (minutes < 1) return 'agora mesmo';
  if (minutes < 60) return `há ${minutes} min`;
  if (minutes < 1440) {
    const m = minutes % 60;
    return `há ${Math.floor(minutes / 60)} h${m ? ` ${String(m).padStart(2, '0')} min` : ''}`;
  }
  const days = Math.floor(minutes / 1440);
  return `há ${days} ${days === 1 ? 'dia' : 'dias'}`;
}

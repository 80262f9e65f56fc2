/** The band of a win probability: its colour and words (a badge on each card, the dialog, Settings). */
export function probabilityBand(p: number): { kind: 'danger' | 'warning' | 'info' | 'success'; label: string } {
  if (p >= 70) return { kind: 'success', label: 'alta' };
  if (p >= 40) return { kind: 'info', label: 'média' };
  if (p >= 20) return { kind: 'warning', label: 'baixa' };
  return { kind: 'danger', label: 'muito baixa' };
}

/** `ai_win_probability` as a small badge coloured by band; nothing when there is none (closed deal, no model). */
export function ProbabilityBadge({ value, large = false }: { value: number | null | undefined; large?: boolean }) {
  if (value === null || value === undefined) return null;
  const band = probabilityBand(value);
  return (
    <span
      className={`badge badge-${band.kind} prob-badge${large ? ' prob-badge-large' : ''}`}
      title={`Probabilidade de ganho: ${value}% (${band.label})`}
      aria-label={`Probabilidade de ganho ${value}%`}
      data-testid="probability-badge"
    >
      {value}%
    </span>
  );
}

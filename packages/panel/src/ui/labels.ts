// Portuguese words for the values the API keeps in its own vocabulary.

export const PRIORITY_LABELS: Record<string, string> = { alta: 'Alta', media: 'Média', baixa: 'Baixa' };
export const PRIORITIES = ['alta', 'media', 'baixa'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const DEAL_STATUS_LABELS: Record<string, string> = { ativo: 'Ativo', ganho: 'Ganho', perdido: 'Perdido', arquivado: 'Arquivado' };

export const VEHICLE_STATUS_LABELS: Record<string, string> = { ativo: 'Em estoque', vendido: 'Vendido', arquivado: 'Arquivado' };

/** A label from a map, or the stored value when the map lacks it (a value the server added later). */
export function labelOf(labels: Record<string, string>, value: string): string {
  return labels[value] ?? value;
}

import { cleanPhaseLabel, phaseKey } from '../phases/phase-names.js';
import { validationError } from '../shared/errors.js';

/**
 * Why deals are lost (DECISIONS: "Closing a deal in the panel"): the team keeps a list the panel offers
 * when a deal is marked lost; "Outro" is always offered after it and opens free text, so it is not an
 * entry of the list. The public API keeps the contract's free `loss_reason`.
 */
export const DEFAULT_LOSS_REASONS = [
  'Preço',
  'Financiamento recusado',
  'Comprou em outra loja',
  'Desistiu da compra',
  'Sem retorno do cliente',
  'Veículo vendido a outro cliente',
] as const;

/** What the panel always offers last: free text. */
export const OTHER_REASON = 'Outro';
export const MAX_LOSS_REASONS = 30;
export const MAX_LOSS_REASON_LENGTH = 100;

export const lossMessages = {
  reasonRequired: 'Informe o motivo da perda',
  tooMany: `No máximo ${MAX_LOSS_REASONS} motivos de perda`,
  tooLong: `Um motivo de perda tem no máximo ${MAX_LOSS_REASON_LENGTH} caracteres`,
  empty: 'Um motivo de perda não pode ser vazio',
  duplicate: (label: string) => `Motivo de perda repetido: '${label}'`,
} as const;

/**
 * A list as the team keeps it: each label cleaned (invisible characters dropped, spaces folded), none
 * empty, none repeated once case, accents and spaces are ignored, and no "Outro" (always offered).
 */
export function cleanLossReasons(labels: readonly string[]): string[] {
  const kept: string[] = [];
  const seen = new Set<string>([phaseKey(OTHER_REASON)]);
  for (const raw of labels) {
    const label = cleanPhaseLabel(raw);
    if (!label) throw validationError(lossMessages.empty, 'reasons');
    if (label.length > MAX_LOSS_REASON_LENGTH) throw validationError(lossMessages.tooLong, 'reasons');
    const key = phaseKey(label);
    if (key === phaseKey(OTHER_REASON)) continue;
    if (seen.has(key)) throw validationError(lossMessages.duplicate(label), 'reasons');
    seen.add(key);
    kept.push(label);
  }
  if (kept.length > MAX_LOSS_REASONS) throw validationError(lossMessages.tooMany, 'reasons');
  return kept;
}

/** The stored column read back: the defaults while the team never edited its list. */
export function lossReasonsOf(stored: string | null | undefined): string[] {
  if (stored == null) return [...DEFAULT_LOSS_REASONS];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [...DEFAULT_LOSS_REASONS];
}

/** The panel's rule on a lost deal (the API keeps free text, empty included): a reason, not blank. */
export function checkPanelLoss(body: { status?: string | undefined; loss_reason?: string | null | undefined }): void {
  if (body.status !== 'perdido') return;
  if (body.loss_reason == null || cleanPhaseLabel(body.loss_reason) === '') throw validationError(lossMessages.reasonRequired, 'loss_reason');
}

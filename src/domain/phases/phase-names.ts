import { foldText } from '../shared/text-search.js';

/**
 * A phase's two faces (DECISIONS: "Phases: a name for the API, a label for people"): the `name` the
 * API reads and writes, and the `label` the panel shows. The defaults' labels are written out; any
 * other name reads with a capital first letter and `_` as a space until someone gives it a label.
 */
const DEFAULT_LABELS: Record<string, string> = {
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

/** Invisible characters: format characters (zero-width space and joiners, BOM, bidi marks) and controls. */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;

/** The label a phase gets from its name alone (the migration's and the CLI's): `test_drive` -> `Test drive`. */
export function defaultPhaseLabel(name: string): string {
  const known = DEFAULT_LABELS[name];
  if (known) return known;
  const spaced = name.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return spaced ? spaced[0]!.toLocaleUpperCase('pt-BR') + spaced.slice(1) : name;
}

/** A typed label as stored: invisible characters dropped, runs of spaces as one, trimmed. */
export const cleanPhaseLabel = (label: string): string => label.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();

/**
 * The name derived once from a label typed in the panel: lower case, accents and symbols dropped,
 * spaces as `_` ("Aguardando financiamento" -> `aguardando_financiamento`, "Pós-venda" -> `posvenda`).
 */
export function phaseNameFromLabel(label: string): string {
  return foldText(cleanPhaseLabel(label))
    .replace(/[^a-z0-9 _]/g, '')
    .trim()
    .replace(/[\s_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** What two phases may not share (name or label): the text without case, accents, spaces, `_` or invisible characters. */
export const phaseKey = (text: string): string => foldText(text.replace(INVISIBLE, '')).replace(/[\s_]+/g, '');

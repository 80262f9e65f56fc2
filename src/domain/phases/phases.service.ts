import type { Db } from '../../storage/db.js';
import { AppError, notFound, validationError } from '../shared/errors.js';
import { canonicalId } from '../shared/ids.js';
import { findTeam } from '../teams/teams.repository.js';
import { cleanPhaseLabel, defaultPhaseLabel, phaseKey, phaseNameFromLabel } from './phase-names.js';
import * as repo from './phases.repository.js';
import { BOARDS, MAX_PHASE_NAME, MAX_PHASES, type Board, type BoardPhase, type PhaseInput } from './phases.types.js';

const NOUN: Record<Board, [string, string]> = { deals: ['negócio', 'negócios'], vehicles: ['veículo', 'veículos'] };

export function checkBoard(raw: string): Board {
  if (!(BOARDS as readonly string[]).includes(raw)) throw validationError(`Quadro inválido: use ${BOARDS.join(' ou ')}`, 'board');
  return raw as Board;
}

/**
 * The parsed phase list of `--set`: `lead:10,qualificado:25` (deal pipeline) or
 * `entrada,preparacao` (vehicle board). Spaces around names and numbers are dropped.
 */
export function parsePhaseList(text: string): PhaseInput[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const colon = part.lastIndexOf(':');
      if (colon < 0) return { name: part };
      const probability = part.slice(colon + 1).trim();
      if (!/^\d+(\.\d+)?$/.test(probability))
        throw validationError(`Probabilidade inválida na fase '${part.slice(0, colon).trim()}': use um número de 0 a 100`, 'phases');
      return { name: part.slice(0, colon).trim(), probability: Number(probability) };
    });
}

export const phaseMessages = {
  exists: 'Fase já existe',
  empty: 'O nome da fase não pode ser vazio',
  noLetters: 'O nome da fase precisa de ao menos uma letra ou número',
} as const;

/** The name and label of one entry of a replacement list (see PhaseInput), or the reason it has none. */
function nameAndLabel(phase: PhaseInput, current: BoardPhase[], typedAsLabels: boolean): { name: string; label: string } {
  let name = phase.name?.trim() ?? '';
  let typed = phase.label === undefined ? undefined : cleanPhaseLabel(phase.label);
  // In the panel a phase is typed as a label: a name that is not one of the board's is one.
  if (typedAsLabels && name && !current.some((p) => p.name === name)) {
    typed ??= cleanPhaseLabel(name);
    name = '';
  }
  if (!name && !typed) throw validationError(phaseMessages.empty, 'phases');
  if (typed !== undefined && !typed) throw validationError(phaseMessages.empty, 'phases');
  if (!name) {
    name = phaseNameFromLabel(typed!);
    if (!name) throw validationError(phaseMessages.noLetters, 'phases');
  }
  for (const text of [name, typed ?? '']) {
    if (text.length > MAX_PHASE_NAME) throw validationError(`O nome da fase deve ter no máximo ${MAX_PHASE_NAME} caracteres`, 'phases');
  }
  if (/[,:\p{Cc}]/u.test(name)) throw validationError(`Nome de fase inválido: '${name}' (sem vírgulas, dois-pontos ou caracteres de controle)`, 'phases');
  const label = typed ?? current.find((p) => p.name === name)?.label ?? defaultPhaseLabel(name);
  return { name, label };
}

/**
 * Checks a replacement list against the board's rules; returns it numbered in order. Two phases may
 * not share a name or a label once case, accents, spaces and invisible characters are ignored.
 */
function checkPhases(board: Board, input: PhaseInput[], current: BoardPhase[], typedAsLabels: boolean): BoardPhase[] {
  if (input.length === 0) throw validationError('Informe ao menos uma fase', 'phases');
  if (input.length > MAX_PHASES) throw validationError(`Um quadro tem no máximo ${MAX_PHASES} fases`, 'phases');
  const seen = new Set<string>();
  return input.map((phase, index) => {
    const { name, label } = nameAndLabel(phase, current, typedAsLabels);
    const keys = new Set([phaseKey(name), phaseKey(label)]);
    if ([...keys].some((key) => seen.has(key))) throw validationError(phaseMessages.exists, 'phases', { phase: label });
    for (const key of keys) seen.add(key);
    if (board === 'vehicles') {
      if (phase.probability !== undefined) throw validationError('As fases do quadro de veículos não têm probabilidade', 'phases');
      return { name, label, position: index + 1 };
    }
    // A deal phase kept without a probability keeps the one it has.
    const probability = phase.probability ?? current.find((p) => p.name === name)?.probability;
    // Named as it was given: by its name (CLI) or its label (panel).
    const shown = phase.name !== undefined && !typedAsLabels ? name : label;
    if (probability === undefined) throw validationError(`Informe a probabilidade da fase '${shown}' (0 a 100), por exemplo ${name}:50`, 'phases');
    if (!Number.isFinite(probability) || probability < 0 || probability > 100) throw validationError('Probabilidade deve ser entre 0 e 100', 'phases');
    return { name, label, position: index + 1, probability };
  });
}

/**
 * The boards of a team: the deal pipeline (with suggested probabilities) and the vehicle board. The
 * CLI (`autosales teams phases`) and the panel go through here. A phase that still has records (of
 * any status: an archived record keeps its phase and may come back) cannot be removed.
 */
export function createPhasesService(db: Pick<Db, 'kysely'>) {
  const k = db.kysely;

  async function teamOrThrow(rawId: string): Promise<string> {
    const id = canonicalId(rawId);
    const team = id ? await findTeam(k, id) : undefined;
    if (!team) throw notFound('Time não encontrado');
    return team.id;
  }

  return {
    async list(teamId: string, board: Board): Promise<BoardPhase[]> {
      return repo.listBoardPhases(k, await teamOrThrow(teamId), checkBoard(board));
    },

    /**
     * Replaces the board's phases by `phases`, in that order; answers the board as stored.
     * `typedAsLabels` (the panel): an entry whose name is not one of the board's is a new phase's label.
     */
    async replace(teamId: string, board: Board, phases: PhaseInput[], { typedAsLabels = false } = {}): Promise<BoardPhase[]> {
      const team = await teamOrThrow(teamId);
      checkBoard(board);
      return k.transaction().execute(async (trx) => {
        await repo.lockTeam(trx, team);
        const current = await repo.listBoardPhases(trx, team, board);
        const next = checkPhases(board, phases, current, typedAsLabels);
        const removed = current.map((p) => p.name).filter((name) => !next.some((p) => p.name === name));
        const inUse = await repo.recordsInPhases(trx, team, board, removed);
        if (inUse.length) {
          const [one, many] = NOUN[board];
          // People (the panel) know a phase by its label; the CLI and the API by its name.
          const shown = (name: string) => (typedAsLabels ? (current.find((p) => p.name === name)?.label ?? name) : name);
          const list = inUse.map((u) => `'${shown(u.phase)}' (${u.count} ${u.count === 1 ? one : many})`).join(', ');
          throw new AppError(422, 'VALIDATION_ERROR', `Fase em uso não pode ser removida: ${list}. Mova esses registros para outra fase antes de removê-la.`, {
            field: 'phases',
          });
        }
        await repo.writeBoard(trx, team, board, next, removed);
        return repo.listBoardPhases(trx, team, board);
      });
    },
  };
}

export type PhasesService = ReturnType<typeof createPhasesService>;

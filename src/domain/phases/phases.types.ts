/** The boards a team configures: the deal pipeline and the vehicle board. */
export const BOARDS = ['deals', 'vehicles'] as const;
export type Board = (typeof BOARDS)[number];

/** A phase of a board, in board order. Deal phases carry a suggested win probability (percent); vehicle phases do not. */
export interface BoardPhase {
  /** What the API reads and writes; never changes once the phase exists. */
  name: string;
  /** What people read (the panel); editable. */
  label: string;
  position: number;
  probability?: number;
}

/**
 * One phase of a replacement list: its name (a kept phase, or a new one named by the CLI), or only
 * its label (a new phase typed in the panel: the name is derived from it), or both (a kept phase
 * relabelled); for the deal pipeline, its suggested probability.
 */
export interface PhaseInput {
  name?: string;
  label?: string;
  probability?: number;
}

/** The vehicle board every team starts with (DECISIONS.md, Vehicles); new vehicles start in the first. */
export const DEFAULT_VEHICLE_PHASES: readonly string[] = ['entrada', 'preparacao', 'documentacao', 'disponivel', 'reservado'];

export const MAX_PHASES = 30;
export const MAX_PHASE_NAME = 50;

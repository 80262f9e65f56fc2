/** Name of the unique index a failed write hit, or null when the error is something else. */
export function uniqueViolationIndex(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code === '23505') return e.constraint ?? '';
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // SQLite names the columns, not the index: "UNIQUE constraint failed: clients.team_id, clients.cpf_normalized".
    const match = /failed: (.*)$/.exec(e.message ?? '');
    return match?.[1] ?? '';
  }
  return null;
}

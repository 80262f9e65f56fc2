/** Prints one JSON object (for scripts) or a human-readable block. */
export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

/** A cell as text: '-' when empty, strings as they are, anything else as JSON. */
const cell = (value: unknown): string => (value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value));

export function table(rows: object[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => cell((r as Record<string, unknown>)[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

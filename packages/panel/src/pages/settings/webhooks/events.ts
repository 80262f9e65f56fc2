/** An empty list subscribes to every kind, present and future. */
export function isAllEvents(events: string[]): boolean {
  return events.length === 0;
}

export function eventsSummary(events: string[]): string {
  if (isAllEvents(events)) return 'Todos os eventos';
  return events.length === 1 ? '1 evento' : `${events.length} eventos`;
}

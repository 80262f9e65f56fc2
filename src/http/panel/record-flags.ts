import { Type } from 'typebox';
import type { ActivitiesService } from '../../domain/activities/activities.service.js';
import type { ActivityView } from '../../domain/activities/activities.types.js';
import { OPEN_ACTIVITY_STATUSES } from '../../domain/activities/activities.types.js';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import type { FinancialView } from '../../domain/financial/financial.types.js';
import { DUE_SOON_MS } from '../../domain/schedule/schedule.types.js';
import { dayIn } from '../../domain/shared/time-zone.js';
import { Activity, FinancialRecord } from '../schemas/agenda.schema.js';

/**
 * The flags the panel adds to activities and financial records (the agenda's colours, the overdue
 * badge), computed as of the request: shared by their own pages and the client's overview.
 */

const closed = { additionalProperties: false } as const;

const LinkRef = Type.Union([Type.Object({ id: Type.String(), name: Type.String() }, closed), Type.Null()]);

export const AgendaActivity = Type.Object(
  {
    ...Activity.properties,
    is_overdue: Type.Boolean({ description: 'Open and past its due time.' }),
    is_due_soon: Type.Boolean({ description: 'Open and due within the next 24 hours.' }),
    deal: { ...LinkRef, description: 'The linked deal: id and title (null when none).' },
    client: { ...LinkRef, description: 'The linked client: id and name (null when none).' },
    vehicle: { ...LinkRef, description: 'The linked vehicle: id and title (null when none).' },
  },
  { ...closed, title: 'AgendaActivity' },
);
export const PanelFinancialRecord = Type.Object(
  { ...FinancialRecord.properties, is_overdue: Type.Boolean({ description: 'Pending and its due date has passed (team time zone).' }) },
  { ...closed, title: 'PanelFinancialRecord' },
);

/** An activity with is_overdue and is_due_soon as of now. */
export function agendaFlags(clock: Pick<BoardsService, 'now'>) {
  const now = clock.now();
  return <A extends ActivityView>(a: A) => {
    const open = (OPEN_ACTIVITY_STATUSES as readonly string[]).includes(a.status) && a.due_at !== null;
    const due = open ? new Date(a.due_at!).getTime() : NaN;
    return { ...a, is_overdue: open && due < now.getTime(), is_due_soon: open && due >= now.getTime() && due - now.getTime() <= DUE_SOON_MS };
  };
}

/** A financial record with is_overdue as of today in the team's time zone. */
export async function overdueFlag(clock: Pick<BoardsService, 'now' | 'timeZone'>, teamId: string) {
  const today = dayIn(clock.now(), await clock.timeZone(teamId));
  return (r: FinancialView) => ({ ...r, is_overdue: r.status === 'pending' && r.due_date < today });
}

/** Activities as the agenda answers them: with their linked deal, client and vehicle by name, and the due flags. */
export async function agendaRows(activities: Pick<ActivitiesService, 'named'>, clock: Pick<BoardsService, 'now'>, teamId: string, list: ActivityView[]) {
  return (await activities.named(teamId, list)).map(agendaFlags(clock));
}

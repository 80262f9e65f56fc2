import { Archive, CalendarPlus, Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../ui/Button';

/**
 * The action bar of a record's dialog (a deal, a vehicle): its own status actions first, then edit and
 * schedule an activity, and archive apart at the end when the role may and the record is not archived.
 */
export function RecordActions({
  children,
  onEdit,
  onSchedule,
  onArchive,
  archiving = false,
}: {
  children?: ReactNode;
  onEdit: () => void;
  onSchedule: () => void;
  /** Absent: no archive button (archived already, or the role may not). */
  onArchive?: (() => void) | undefined;
  archiving?: boolean;
}) {
  return (
    <div className="row">
      {children}
      <Button icon={<Pencil size={16} aria-hidden />} onClick={onEdit}>
        Editar
      </Button>
      <Button icon={<CalendarPlus size={16} aria-hidden />} onClick={onSchedule}>
        Nova atividade
      </Button>
      <span className="spacer" />
      {onArchive ? (
        <Button variant="danger-ghost" icon={<Archive size={16} aria-hidden />} loading={archiving} onClick={onArchive}>
          Arquivar
        </Button>
      ) : null}
    </div>
  );
}

import { Bell } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLeadNotices, useMarkLeadSeen } from '../api/leads';
import { formatWaiting } from '../ui/format';

/**
 * The header's lead notices: a bell with the count of leads assigned to me that I have not opened,
 * and their list. Opening one marks it seen and opens its deal on the board.
 */
export function LeadNotices() {
  const notices = useLeadNotices();
  const seen = useMarkLeadSeen();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const count = notices.data?.count ?? 0;
  const label = count === 0 ? 'Leads novos: nenhum' : `Leads novos: ${count}`;
  return (
    <div className="user-menu" ref={ref}>
      <button type="button" className="notice-button" aria-label={label} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Bell size={18} aria-hidden />
        {count > 0 ? (
          <span className="notice-count" aria-hidden data-testid="lead-notice-count">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="menu notice-menu" role="dialog" aria-label="Leads novos para você">
          <div className="menu-head">
            <strong>Leads novos para você</strong>
            <div className="muted small">{count === 0 ? 'Nenhum lead esperando você abrir.' : 'Abra um lead para respondê-lo.'}</div>
          </div>
          <ul className="notice-list">
            {notices.data?.items.map((n) => (
              <li key={n.id}>
                <button
                  type="button"
                  className="menu-item"
                  onClick={() => {
                    seen.mutate(n.id);
                    setOpen(false);
                    void navigate(`/negocios?abrir=${n.deal_id}`);
                  }}
                >
                  <span style={{ minWidth: 0 }}>
                    <strong className="truncate" style={{ display: 'block' }}>
                      {n.client_name ?? n.title}
                    </strong>
                    <span className="small muted">
                      {n.source ? `${n.source} · ` : ''}
                      {formatWaiting(n.waiting_minutes)}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

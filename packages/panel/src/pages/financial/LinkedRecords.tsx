import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import type { FinancialRecord } from '../../api/types';
import { Button } from '../../ui/Button';
import { formatDay, formatMoney } from '../../ui/format';
import { FINANCIAL_STATUS_LABELS, FINANCIAL_TYPE_LABELS } from './labels';

/**
 * The financial records linked to a client or a vehicle (its page or dialog), for those who see the
 * cash book: description, type, status, due day and amount, with a way to add one already linked.
 */
export function LinkedRecords({
  records,
  onAdd,
  heading = 'h2',
}: {
  records: readonly FinancialRecord[] | undefined;
  onAdd?: () => void;
  heading?: 'h2' | 'h3';
}) {
  const Heading = heading;
  return (
    <div className="card" data-testid="linked-records">
      <div className="card-header">
        <Heading>Financeiro</Heading>
        <div className="row">
          {onAdd ? (
            <Button size="sm" icon={<Plus size={15} aria-hidden />} onClick={onAdd}>
              Novo lançamento
            </Button>
          ) : null}
          <Link to="/financeiro" className="small">
            Abrir financeiro
          </Link>
        </div>
      </div>
      {records === undefined ? (
        <p className="card-body muted">Carregando…</p>
      ) : records.length === 0 ? (
        <p className="card-body muted">Nenhum lançamento.</p>
      ) : (
        <ul className="plain-list">
          {records.map((f) => (
            <li key={f.id}>
              <strong>{f.description}</strong>
              <span className="small muted">
                {FINANCIAL_TYPE_LABELS[f.type]} · {FINANCIAL_STATUS_LABELS[f.status]} · vence {formatDay(f.due_date)}
              </span>
              <span className="money">{formatMoney(f.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

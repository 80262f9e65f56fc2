import { useEffect, useState } from 'react';
import { permissions, useCurrentSession } from '../../auth/session';
import { NoAccess } from '../../ui/NoAccess';
import { FinancialList } from './FinancialList';
import { FinancialSummaryView } from './FinancialSummary';

/** The cash book: its records (list, new record, payment) and the summary (totals, charts, margins). */
export function FinancialPage() {
  const [tab, setTab] = useState<'records' | 'summary'>('records');
  useEffect(() => {
    document.title = 'Financeiro · autosales';
  }, []);
  const { user } = useCurrentSession();
  if (!permissions(user.role).financial)
    return (
      <>
        <div className="page-header">
          <div>
            <h1>Financeiro</h1>
          </div>
        </div>
        <NoAccess />
      </>
    );
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Financeiro</h1>
          <p>Receitas, despesas e custos da loja, com o que venceu e a margem de cada veículo vendido.</p>
        </div>
      </div>
      <div className="subnav" role="tablist" aria-label="Financeiro">
        <button type="button" role="tab" aria-selected={tab === 'records'} className={tab === 'records' ? 'active' : ''} onClick={() => setTab('records')}>
          Lançamentos
        </button>
        <button type="button" role="tab" aria-selected={tab === 'summary'} className={tab === 'summary' ? 'active' : ''} onClick={() => setTab('summary')}>
          Resumo
        </button>
      </div>
      {tab === 'records' ? <FinancialList /> : <FinancialSummaryView />}
    </>
  );
}

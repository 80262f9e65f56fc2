import { ArrowDownRight, ArrowUpRight, Sparkles } from 'lucide-react';
import { useDealProbability } from '../../api/deals';
import { ProbabilityBadge, probabilityBand } from '../../ui/ProbabilityBadge';

/**
 * The deal's summary and win probability in its dialog: the badge, and the three factors that raise
 * and the three that lower it most, in words. Where the team's model is not used, says why.
 */
export function DealProbability({ id, probability, summary }: { id: string; probability: number | null; summary: string | null }) {
  const why = useDealProbability(id, probability !== null);
  const data = why.data;
  return (
    <section className="card card-body stack" aria-label="Probabilidade de ganho" data-testid="deal-probability">
      {summary ? (
        <p className="small" style={{ margin: 0 }}>
          <Sparkles size={14} aria-hidden /> {summary}
        </p>
      ) : null}
      {probability === null ? (
        <p className="small muted" style={{ margin: 0 }}>
          Sem probabilidade de ganho: o negócio está fechado ou o time ainda não tem 40 negócios fechados para treinar o modelo.
        </p>
      ) : (
        <>
          <div className="row">
            <strong>Probabilidade de ganho</strong>
            <ProbabilityBadge value={probability} large />
            <span className="small muted">{probabilityBand(probability).label}</span>
          </div>
          {data?.used === 'phase' ? (
            <p className="small muted" style={{ margin: 0 }}>
              É a probabilidade sugerida da fase: o modelo do time não previu melhor que ela nos negócios já fechados.
            </p>
          ) : data && (data.raising.length > 0 || data.lowering.length > 0) ? (
            <div className="factors">
              <div>
                <span className="small factor-up">
                  <ArrowUpRight size={14} aria-hidden /> Aumentam
                </span>
                <ul className="small" data-testid="factors-up">
                  {data.raising.map((f) => (
                    <li key={f.feature}>{f.text}</li>
                  ))}
                </ul>
              </div>
              <div>
                <span className="small factor-down">
                  <ArrowDownRight size={14} aria-hidden /> Diminuem
                </span>
                <ul className="small" data-testid="factors-down">
                  {data.lowering.map((f) => (
                    <li key={f.feature}>{f.text}</li>
                  ))}
                </ul>
              </div>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

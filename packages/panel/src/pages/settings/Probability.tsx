import { useEffect } from 'react';
import { CartesianGrid, Legend, Line, ComposedChart, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { useProbabilityModel } from '../../api/deals';
import type { ProbabilityModel } from '../../api/types';
import { formatDateTime, formatInt } from '../../ui/format';
import { Alert, ErrorState, Loading } from '../../ui/States';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`);
const num = (x: number | null | undefined, digits = 3) =>
  x === null || x === undefined ? '—' : x.toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Settings → Probabilidade: the team's win-probability model, when it was trained and on what, whether
 * the deals answer it or their phase's probability, its held-out metrics against the phase's, and a
 * reliability chart (predicted against observed per decile: calibrated points sit on the diagonal).
 */
export function ProbabilityPage() {
  const model = useProbabilityModel();
  useEffect(() => {
    document.title = 'Probabilidade · Configurações · autosales';
  }, []);
  if (model.isPending) return <Loading rows={4} />;
  if (model.isError) return <ErrorState error={model.error} onRetry={() => void model.refetch()} />;
  const m = model.data;
  return (
    <div className="stack" data-testid="probability-settings">
      <p className="muted">
        Cada negócio em andamento mostra a chance de ser ganho, calculada aqui no servidor da loja a partir dos negócios que o time já fechou (nada sai do
        servidor). O modelo é treinado todo dia e a cada 20 negócios fechados.
      </p>
      {m === null ? (
        <Alert kind="info">O modelo ainda não foi treinado. Com 40 negócios fechados (ganhos ou perdidos) ele é treinado automaticamente.</Alert>
      ) : m.used === 'none' ? (
        <Alert kind="info">{m.reason ?? 'São necessários ao menos 40 negócios fechados.'}</Alert>
      ) : (
        <ModelReport m={m} />
      )}
    </div>
  );
}

function ModelReport({ m }: { m: ProbabilityModel }) {
  const metrics = m.metrics;
  const points = (metrics?.model.calibration ?? []).map((b) => ({ predicted: b.predicted * 100, observed: b.observed * 100, count: b.count }));
  const phase = (metrics?.baseline.calibration ?? []).map((b) => ({ predicted: b.predicted * 100, observed: b.observed * 100, count: b.count }));
  return (
    <>
      {m.used === 'model' ? (
        <Alert kind="success">Os negócios mostram a probabilidade do modelo: ele ordena os negócios melhor que a probabilidade da fase.</Alert>
      ) : (
        <Alert kind="warning">
          Os negócios mostram a probabilidade sugerida da fase: o modelo não ordenou os negócios melhor que ela por uma margem que o acaso não explique.
        </Alert>
      )}
      <div className="grid-2">
        <div className="card card-body">
          <dl className="kv" data-testid="probability-metrics">
            <dt>Treinado em</dt>
            <dd>{formatDateTime(m.trained_at)}</dd>
            <dt>Negócios fechados</dt>
            <dd>{formatInt(m.closed_deals)}</dd>
            <dt>Avaliação</dt>
            <dd>
              {metrics?.method === 'holdout' ? 'nos 20% mais recentes' : 'validação cruzada (5 partes)'} · {formatInt(metrics?.evaluated_deals)} negócios
            </dd>
            <dt>AUC do modelo</dt>
            <dd>
              {num(m.auc)}{' '}
              <span className="muted small">
                ({num(metrics?.model.auc_low)}–{num(metrics?.model.auc_high)})
              </span>
            </dd>
            <dt>AUC da fase</dt>
            <dd>{num(m.baseline_auc)}</dd>
            <dt>Diferença</dt>
            <dd>
              {num(metrics?.auc_difference)}{' '}
              <span className="muted small">
                (intervalo {num(metrics?.auc_difference_low)} a {num(metrics?.auc_difference_high)})
              </span>
            </dd>
            <dt>Brier (modelo · fase)</dt>
            <dd>
              {num(m.brier)} · {num(m.baseline_brier)}
            </dd>
            <dt>Treino</dt>
            <dd>{(m.training_ms / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} s</dd>
          </dl>
          <p className="small muted">
            AUC: a chance de um negócio ganho receber probabilidade maior que um perdido (0,5 é o acaso). Brier: erro médio; menor é melhor.
          </p>
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Confiabilidade</h2>
            <span className="small muted">previsto × ganho de fato, por faixa</span>
          </div>
          <div className="chart" role="img" aria-label="Gráfico de confiabilidade: probabilidade prevista contra a taxa de ganho observada">
            <ResponsiveContainer width="100%" height={260}>
              <ComposedChart margin={{ top: 8, right: 16, left: 0, bottom: 8 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" dataKey="predicted" domain={[0, 100]} unit="%" fontSize={11} name="Previsto" />
                <YAxis type="number" dataKey="observed" domain={[0, 100]} unit="%" fontSize={11} name="Observado" />
                <Tooltip formatter={(v: unknown) => pct(Number(v) / 100)} />
                <Legend />
                <Line
                  data={[
                    { predicted: 0, observed: 0 },
                    { predicted: 100, observed: 100 },
                  ]}
                  dataKey="observed"
                  name="Perfeito"
                  stroke="#94a3b8"
                  strokeDasharray="4 4"
                  dot={false}
                  isAnimationActive={false}
                />
                <Scatter data={phase} name="Fase" fill="#d97706" isAnimationActive={false} />
                <Scatter data={points} name="Modelo" fill="#1d4ed8" line isAnimationActive={false} />
              </ComposedChart>
            </ResponsiveContainer>
          </div>
        </div>
      </div>
    </>
  );
}

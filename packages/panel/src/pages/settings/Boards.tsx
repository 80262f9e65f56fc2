import { ArrowDown, ArrowUp, Columns3, GripVertical, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useState, type DragEvent, type FormEvent } from 'react';
import { ApiError, fieldError } from '../../api/client';
import { usePhases, useReplacePhases } from '../../api/phases';
import type { BoardName, Phase } from '../../api/types';
import { Button } from '../../ui/Button';
import { Alert, EmptyState, ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { LossReasonsEditor } from './LossReasons';

const BOARDS: { board: BoardName; label: string; description: string }[] = [
  { board: 'deals', label: 'Funil de negócios', description: 'As fases por que um negócio passa, com a probabilidade sugerida de fechar em cada uma.' },
  { board: 'vehicles', label: 'Quadro de veículos', description: 'As fases de um veículo na loja, da entrada até ficar disponível ou reservado.' },
];

interface Row {
  key: number;
  /** What people read (the text field); the API name of a kept phase never changes with it. */
  name: string;
  probability: string;
  /** The name the server has, to tell a new or renamed phase from a kept one. */
  original: string | null;
  /** The label the server has, for the "antes:" hint. */
  was: string | null;
}

let nextKey = 1;

function toRows(phases: Phase[]): Row[] {
  return phases.map((p) => ({
    key: nextKey++,
    name: p.label,
    probability: p.probability === undefined || p.probability === null ? '' : String(p.probability),
    original: p.name,
    was: p.label,
  }));
}

export function BoardsPage() {
  useEffect(() => {
    document.title = 'Quadros · Configurações · autosales';
  }, []);
  return (
    <div className="stack">
      {BOARDS.map((b) => (
        <BoardEditor key={b.board} {...b} />
      ))}
      <LossReasonsEditor />
    </div>
  );
}

function BoardEditor({ board, label, description }: { board: BoardName; label: string; description: string }) {
  const headingId = useId();
  const query = usePhases(board);
  if (query.isPending)
    return (
      <section className="card" aria-labelledby={headingId}>
        <div className="card-header">
          <h2 id={headingId}>{label}</h2>
        </div>
        <Loading rows={5} />
      </section>
    );
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <section className="card" aria-labelledby={headingId}>
        <div className="card-header">
          <h2 id={headingId}>{label}</h2>
        </div>
        {missing ? (
          <EmptyState icon={Columns3} title="Em breve">
            Este quadro ainda não está disponível no servidor.
          </EmptyState>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )}
      </section>
    );
  }
  // Remounted whenever the server's list changes (loaded, or saved), so editing starts from it.
  return <BoardForm key={query.dataUpdatedAt} board={board} label={label} description={description} headingId={headingId} phases={query.data} />;
}

function BoardForm({
  board,
  label,
  description,
  headingId,
  phases: serverPhases,
}: {
  board: BoardName;
  label: string;
  description: string;
  headingId: string;
  phases: Phase[];
}) {
  const toast = useToast();
  const [rows, setRows] = useState<Row[]>(() => toRows(serverPhases));
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  // Only the number badge starts a drag, so selecting text in the name field stays possible.
  const [armed, setArmed] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const withProbability = board === 'deals';
  const replace = useReplacePhases(board);
  const save = {
    ...replace,
    mutate: (phases: { name?: string; label: string; probability?: number }[]) =>
      replace.mutate(phases, { onSuccess: () => toast.success(`${label}: fases salvas.`) }),
  };

  const dirty =
    rows.length !== serverPhases.length ||
    rows.some((r, i) => {
      const p = serverPhases[i];
      return !p || r.original !== p.name || r.name.trim() !== p.label || (withProbability && r.probability !== String(p.probability ?? ''));
    });

  const move = (index: number, to: number) => {
    if (to < 0 || to >= rows.length || to === index) return;
    const next = [...rows];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(to, 0, item);
    setRows(next);
    setAnnounce(`${item.name || 'Fase'} movida para a posição ${to + 1} de ${rows.length}.`);
  };
  const update = (key: number, patch: Partial<Row>) => setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const remove = (key: number) => setRows(rows.filter((r) => r.key !== key));
  const add = () => setRows([...rows, { key: nextKey++, name: '', probability: withProbability ? '50' : '', original: null, was: null }]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      rows.map((r) => {
        // A kept phase by its API name with its (maybe new) label; a new one by its label alone.
        const phase = { ...(r.original ? { name: r.original } : {}), label: r.name.trim() };
        if (!withProbability || r.probability.trim() === '') return phase;
        return { ...phase, probability: Number(r.probability.replace(',', '.')) };
      }),
    );
  };

  const onDragStart = (e: DragEvent, index: number) => {
    setDragging(index);
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', String(index));
  };
  const onDrop = (e: DragEvent, index: number) => {
    e.preventDefault();
    if (dragging !== null) move(dragging, index);
    setDragging(null);
    setOver(null);
  };

  const err = save.error;
  const phasesErr = fieldError(err, 'phases');

  return (
    <section className="card" aria-labelledby={headingId} data-testid={`board-${board}`}>
      <div className="card-header">
        <div>
          <h2 id={headingId}>{label}</h2>
          <p>{description}</p>
        </div>
      </div>
      <form className="card-body" onSubmit={submit}>
        <p className="hint" style={{ marginBottom: 12 }}>
          Use as setas (ou arraste) para mudar a ordem. Renomear uma fase equivale a removê-la e criar outra: uma fase com registros não pode ser removida.
        </p>
        {err ? (
          <div style={{ marginBottom: 12 }}>
            <Alert kind="danger">{phasesErr ?? err.message}</Alert>
          </div>
        ) : null}
        <ol className="phase-list" aria-label={`Fases do ${label.toLowerCase()}`}>
          {rows.map((r, i) => (
            <li
              key={r.key}
              className={`phase-item ${withProbability ? '' : 'no-prob'} ${dragging === i ? 'dragging' : ''} ${over === i && dragging !== i ? 'drop-target' : ''}`}
              draggable={armed === r.key}
              onDragStart={(e) => onDragStart(e, i)}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(i);
              }}
              onDragLeave={() => setOver((o) => (o === i ? null : o))}
              onDrop={(e) => onDrop(e, i)}
              onDragEnd={() => {
                setDragging(null);
                setOver(null);
                setArmed(null);
              }}
              data-testid="phase-item"
            >
              <span
                className="phase-index"
                title="Arraste para mudar a ordem"
                aria-hidden
                onPointerDown={() => setArmed(r.key)}
                onPointerUp={() => setArmed(null)}
              >
                {dragging === i ? <GripVertical size={14} /> : i + 1}
              </span>
              <div>
                <label className="sr-only" htmlFor={`${headingId}-name-${r.key}`}>
                  Nome da fase {i + 1}
                </label>
                <input
                  id={`${headingId}-name-${r.key}`}
                  className="input"
                  value={r.name}
                  maxLength={50}
                  required
                  placeholder="nome da fase"
                  onChange={(e) => update(r.key, { name: e.target.value })}
                  aria-invalid={phasesErr && phasesErr.includes(`'${r.name.trim()}'`) ? true : undefined}
                />
                {r.was && r.name.trim() !== r.was ? <span className="hint">antes: {r.was}</span> : null}
              </div>
              {withProbability ? (
                <div className="prob-input">
                  <label className="sr-only" htmlFor={`${headingId}-prob-${r.key}`}>
                    Probabilidade da fase {i + 1} (%)
                  </label>
                  <input
                    id={`${headingId}-prob-${r.key}`}
                    className="input"
                    type="number"
                    min={0}
                    max={100}
                    step={1}
                    inputMode="numeric"
                    required
                    value={r.probability}
                    onChange={(e) => update(r.key, { probability: e.target.value })}
                  />
                  <span className="muted">%</span>
                </div>
              ) : null}
              <div className="phase-buttons">
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-icon"
                  aria-label={`Subir ${r.name || `fase ${i + 1}`}`}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  <ArrowUp size={16} aria-hidden />
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-icon"
                  aria-label={`Descer ${r.name || `fase ${i + 1}`}`}
                  disabled={i === rows.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  <ArrowDown size={16} aria-hidden />
                </Button>
                <Button
                  size="sm"
                  variant="danger-ghost"
                  className="btn-icon"
                  aria-label={`Remover ${r.name || `fase ${i + 1}`}`}
                  disabled={rows.length === 1}
                  onClick={() => remove(r.key)}
                >
                  <Trash2 size={16} aria-hidden />
                </Button>
              </div>
            </li>
          ))}
        </ol>
        <p className="sr-only" aria-live="polite">
          {announce}
        </p>
        <div className="form-actions" style={{ justifyContent: 'space-between' }}>
          <Button icon={<Plus size={16} aria-hidden />} onClick={add} disabled={rows.length >= 30}>
            Adicionar fase
          </Button>
          <div className="row">
            <Button
              disabled={!dirty || save.isPending}
              onClick={() => {
                setRows(toRows(serverPhases));
                save.reset();
              }}
            >
              Descartar
            </Button>
            <Button type="submit" variant="primary" loading={save.isPending} disabled={!dirty}>
              Salvar fases
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}

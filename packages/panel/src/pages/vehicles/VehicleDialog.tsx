import { BadgeCheck } from 'lucide-react';
import { useState } from 'react';
import { usePhaseLabel, usePhases } from '../../api/phases';
import type { VehicleChanges } from '../../api/types';
import { useArchiveVehicle, useSaveVehicle, useVehicle } from '../../api/vehicles';
import { permissions, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { formatDateTime, formatInt, formatMoney } from '../../ui/format';
import { VEHICLE_STATUS_LABELS } from '../../ui/labels';
import { ErrorState, Loading } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { useFinancialList } from '../../api/financial';
import { ActivityForm } from '../agenda/ActivityForm';
import { FinancialForm } from '../financial/FinancialForm';
import { LinkedRecords } from '../financial/LinkedRecords';
import { RecordActions } from '../records/RecordActions';
import { VehicleForm } from './VehicleForm';

/** One vehicle: its fields, a move to another phase, sold / back to stock, archive, edit, schedule. */
export function VehicleDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const phaseName = usePhaseLabel('vehicles');
  const [editing, setEditing] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [recording, setRecording] = useState(false);
  const vehicle = useVehicle(id);
  const can = permissions(useCurrentSession().user.role);
  // Its records: sales and costs (the margin's parts), for those who see the cash book.
  const records = useFinancialList({ vehicle_id: id ?? '', limit: 20, sort: '-due_date' }, can.financial && id !== null);
  const phases = usePhases('vehicles');
  const toast = useToast();
  const save = useSaveVehicle();
  const archiving = useArchiveVehicle();
  const change = {
    ...save,
    mutate: ({ body, done }: { body: VehicleChanges; done: string }) =>
      save.mutate({ id: id ?? '', body }, { onSuccess: () => toast.success(done), onError: (err) => toast.error(err.message) }),
  };
  const archive = {
    ...archiving,
    mutate: () =>
      archiving.mutate(id ?? '', {
        onSuccess: () => {
          toast.success('Veículo arquivado.');
          onClose();
        },
        onError: (err) => toast.error(err.message),
      }),
  };
  const v = vehicle.data;
  return (
    <>
      <Dialog open={id !== null && !editing && !scheduling && !recording} onClose={onClose} title={v?.title ?? 'Veículo'} wide>
        {vehicle.isPending ? (
          <Loading />
        ) : vehicle.isError ? (
          <ErrorState error={vehicle.error} onRetry={() => void vehicle.refetch()} />
        ) : v ? (
          <div className="stack">
            <div className="row">
              <span className={`badge ${v.status === 'vendido' ? 'badge-success' : ''}`}>{VEHICLE_STATUS_LABELS[v.status] ?? v.status}</span>
              {v.plate ? <span className="plate">{v.plate}</span> : null}
            </div>
            <dl className="kv">
              <dt>Preço</dt>
              <dd>{formatMoney(v.price)}</dd>
              {can.purchasePrice && 'purchase_price' in v ? (
                <>
                  <dt>Preço de compra</dt>
                  <dd>{formatMoney(v.purchase_price)}</dd>
                </>
              ) : null}
              <dt>Marca / modelo</dt>
              <dd>
                {v.brand} {v.model} {v.version ?? ''}
              </dd>
              <dt>Ano</dt>
              <dd>
                {v.manufacture_year ?? '—'}/{v.model_year ?? '—'}
              </dd>
              <dt>Quilometragem</dt>
              <dd>{v.mileage === null ? '—' : `${formatInt(v.mileage)} km`}</dd>
              <dt>RENAVAM</dt>
              <dd className="mono">{v.renavam ?? '—'}</dd>
              <dt>Chassi</dt>
              <dd className="mono">{v.chassis ?? '—'}</dd>
              {v.sold_at ? (
                <>
                  <dt>Vendido em</dt>
                  <dd>{formatDateTime(v.sold_at)}</dd>
                </>
              ) : null}
            </dl>
            {v.status === 'ativo' ? (
              <div className="field">
                <label className="label" htmlFor="vehicle-move">
                  Fase
                </label>
                <select
                  id="vehicle-move"
                  className="select"
                  value={v.phase}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ body: { phase: e.target.value }, done: `Movido para ${phaseName(e.target.value)}.` })}
                >
                  {phases.data?.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.label}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <p className="small muted">Fase: {phaseName(v.phase)}</p>
            )}
            <RecordActions
              onEdit={() => setEditing(true)}
              onSchedule={() => setScheduling(true)}
              onArchive={v.status !== 'arquivado' && can.archiveVehicle ? () => archive.mutate() : undefined}
              archiving={archive.isPending}
            >
              {v.status === 'ativo' && can.sellVehicle ? (
                <Button
                  variant="primary"
                  icon={<BadgeCheck size={16} aria-hidden />}
                  loading={change.isPending}
                  onClick={() => change.mutate({ body: { status: 'vendido' }, done: 'Veículo marcado como vendido.' })}
                >
                  Marcar como vendido
                </Button>
              ) : v.status === 'vendido' && can.sellVehicle ? (
                <Button onClick={() => change.mutate({ body: { status: 'ativo' }, done: 'Veículo de volta ao estoque.' })}>Voltar ao estoque</Button>
              ) : null}
            </RecordActions>
            {can.financial ? <LinkedRecords heading="h3" records={records.data?.data} onAdd={() => setRecording(true)} /> : null}
          </div>
        ) : null}
      </Dialog>
      {recording && v ? <FinancialForm links={{ vehicle: { id: v.id, name: v.title }, type: 'cost' }} onClose={() => setRecording(false)} /> : null}
      {editing && v ? <VehicleForm vehicle={v} onClose={() => setEditing(false)} /> : null}
      {scheduling && v ? <ActivityForm link={{ vehicle_id: v.id, label: `Ligada ao veículo ${v.title}.` }} onClose={() => setScheduling(false)} /> : null}
    </>
  );
}

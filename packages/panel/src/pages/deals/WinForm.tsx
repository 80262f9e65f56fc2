import { Trophy } from 'lucide-react';
import { useState } from 'react';
import { fieldError } from '../../api/client';
import { useWinDeal } from '../../api/deals';
import { useCreateFinancial } from '../../api/financial';
import type { Deal, DealWon } from '../../api/types';
import { useVehicle } from '../../api/vehicles';
import { permissions, useCurrentSession } from '../../auth/session';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/Field';
import { MoneyField } from '../../ui/MaskedFields';
import { moneyInput, moneyValue } from '../../ui/masks';
import { formatMoney } from '../../ui/format';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { PAYMENT_METHOD_LABELS, today } from '../financial/labels';
import { VehiclePicker, type Picked } from '../records/Picker';

/**
 * Winning a deal (DECISIONS: "Closing a deal in the panel"): which car was sold (the deal's own, or one
 * picked from the stock) and the final value; the server sells the car in the win's transaction. Then,
 * for those who see the cash book, the offer to record the sale's revenue.
 */
export function WinForm({ deal, onBack, onDone }: { deal: Deal; onBack: () => void; onDone: () => void }) {
  const can = permissions(useCurrentSession().user.role);
  const own = useVehicle(deal.case_id);
  // The car picked (null: none); undefined until the person picks, while the deal's own car is offered.
  const [picked, setCar] = useState<Picked | null | undefined>(undefined);
  const [value, setValue] = useState(moneyInput(deal.value));
  const [valueError, setValueError] = useState<string>();
  const [won, setWon] = useState<DealWon | null>(null);
  const winning = useWinDeal();
  const toast = useToast();

  // The deal's own car, when it is still in stock, is the one offered first.
  const ownCar = own.data?.status === 'ativo' ? { id: own.data.id, name: own.data.title } : null;
  const car = picked === undefined ? ownCar : picked;

  if (won) return can.financial ? <RevenueOffer won={won} onDone={onDone} /> : null;

  const submit = () => {
    const amount = moneyValue(value);
    if (amount === null || !Number.isFinite(amount) || amount < 0) {
      setValueError('Informe o valor final da venda');
      return;
    }
    setValueError(undefined);
    winning.mutate(
      { id: deal.id, body: { vehicle_id: car?.id ?? null, value: amount } },
      {
        onSuccess: (answer) => {
          toast.success(answer.vehicle ? `Negócio ganho! ${answer.vehicle.title} vendido.` : 'Negócio ganho!');
          if (can.financial) setWon(answer);
          else onDone();
        },
      },
    );
  };
  const err = winning.error;
  return (
    <form
      className="card card-body"
      aria-label="Marcar como ganho"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {err && !fieldError(err, 'vehicle_id') && !fieldError(err, 'value') ? <Alert kind="danger">{err.message}</Alert> : null}
      <VehiclePicker
        label="Veículo vendido"
        value={car}
        onChange={setCar}
        error={fieldError(err, 'vehicle_id')}
        hint="Escolha o carro do estoque. Sem veículo, o negócio é ganho sem baixa no estoque."
      />
      <MoneyField
        label="Valor final"
        value={value}
        onChange={setValue}
        error={valueError ?? fieldError(err, 'value')}
        hint={car ? 'O veículo passa a vendido junto com o negócio.' : undefined}
      />
      <div className="form-actions">
        <Button onClick={onBack}>Voltar</Button>
        <Button type="submit" variant="primary" icon={<Trophy size={16} aria-hidden />} loading={winning.isPending}>
          Confirmar venda
        </Button>
      </div>
    </form>
  );
}

/** The sale's revenue, offered after the win: linked to the deal, the car and the client, due today. */
function RevenueOffer({ won, onDone }: { won: DealWon; onDone: () => void }) {
  const [paid, setPaid] = useState(false);
  const [method, setMethod] = useState('pix');
  const creating = useCreateFinancial();
  const toast = useToast();
  const { deal, vehicle } = won;
  const amount = deal.value ?? 0;
  const record = () =>
    creating.mutate(
      {
        type: 'revenue',
        category: 'venda-veiculo',
        description: `Venda: ${vehicle?.title ?? deal.title}`,
        amount,
        due_date: today(),
        deal_id: deal.id,
        ...(vehicle ? { vehicle_id: vehicle.id } : {}),
        ...(deal.client_id ? { client_id: deal.client_id } : {}),
        ...(paid ? { status: 'paid' as const, payment_method: method as 'pix' } : {}),
      },
      {
        onSuccess: () => {
          toast.success(paid ? 'Receita da venda registrada como recebida.' : 'Receita da venda registrada a receber.');
          onDone();
        },
      },
    );
  return (
    <form
      className="card card-body"
      aria-label="Registrar a receita da venda"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        record();
      }}
    >
      <h3>Registrar a receita da venda?</h3>
      <p className="small muted">
        {formatMoney(amount)} · Venda de veículo{vehicle ? ` · ${vehicle.title}` : ''}
        {deal.client ? ` · ${deal.client.name}` : ''} · vence hoje
      </p>
      {amount <= 0 ? <Alert kind="warning">Sem valor final, não há receita a registrar.</Alert> : null}
      {creating.error ? <Alert kind="danger">{creating.error.message}</Alert> : null}
      <SelectField label="Situação" value={paid ? 'paid' : 'pending'} onChange={(e) => setPaid(e.target.value === 'paid')}>
        <option value="pending">A receber</option>
        <option value="paid">Recebido</option>
      </SelectField>
      {paid ? (
        <SelectField
          label="Forma de recebimento"
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          error={fieldError(creating.error, 'payment_method')}
        >
          {Object.entries(PAYMENT_METHOD_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className="form-actions">
        <Button onClick={onDone}>Agora não</Button>
        <Button type="submit" variant="primary" loading={creating.isPending} disabled={amount <= 0}>
          Registrar receita
        </Button>
      </div>
    </form>
  );
}

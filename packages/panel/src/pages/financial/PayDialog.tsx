import { useState } from 'react';
import { fieldError } from '../../api/client';
import { usePayFinancial } from '../../api/financial';
import type { FinancialPayment, FinancialRecord } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { formatMoney } from '../../ui/format';
import { Alert } from '../../ui/States';
import { useToast } from '../../ui/Toasts';
import { DateField } from '../../ui/DateField';
import { PAYMENT_METHOD_LABELS, today } from './labels';

/** Records a payment: the method and the day it was paid. */
export function PayDialog({ record, onClose }: { record: FinancialRecord; onClose: () => void }) {
  const [method, setMethod] = useState('pix');
  // Money in is received, money out is paid: the words follow the record's type.
  const incoming = record.type === 'revenue';
  const [paidOn, setPaidOn] = useState(today());
  const toast = useToast();
  const paying = usePayFinancial();
  const pay = {
    ...paying,
    mutate: () =>
      paying.mutate(
        {
          id: record.id,
          body: {
            payment_method: method as FinancialPayment['payment_method'],
            ...(paidOn && paidOn !== today() ? { paid_at: new Date(`${paidOn}T12:00:00`).toISOString() } : {}),
          },
        },
        {
          onSuccess: () => {
            toast.success(incoming ? 'Recebimento registrado.' : 'Pagamento registrado.');
            onClose();
          },
        },
      ),
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={incoming ? 'Registrar recebimento' : 'Registrar pagamento'}
      description={`${record.description} · ${formatMoney(record.amount)}`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          pay.mutate();
        }}
        noValidate
      >
        {pay.error && !fieldError(pay.error, 'payment_method') && !fieldError(pay.error, 'paid_at') ? <Alert kind="danger">{pay.error.message}</Alert> : null}
        <SelectField
          label={incoming ? 'Forma de recebimento' : 'Forma de pagamento'}
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          error={fieldError(pay.error, 'payment_method')}
        >
          {Object.entries(PAYMENT_METHOD_LABELS).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </SelectField>
        <DateField label={incoming ? 'Recebido em' : 'Pago em'} value={paidOn} onChange={setPaidOn} error={fieldError(pay.error, 'paid_at')} />
        <div className="form-actions">
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="primary" loading={pay.isPending}>
            {incoming ? 'Confirmar recebimento' : 'Confirmar pagamento'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

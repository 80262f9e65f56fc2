import type { FinancialStatus, FinancialType } from '../../api/records';

export const FINANCIAL_TYPE_LABELS: Record<FinancialType, string> = { revenue: 'Receita', expense: 'Despesa', cost: 'Custo' };
export const FINANCIAL_STATUS_LABELS: Record<FinancialStatus, string> = { pending: 'Pendente', paid: 'Pago', cancelled: 'Cancelado' };
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  pix: 'Pix',
  boleto: 'Boleto',
  cartao: 'Cartão',
  transferencia: 'Transferência',
  financiamento: 'Financiamento',
  dinheiro: 'Dinheiro',
  cheque: 'Cheque',
};

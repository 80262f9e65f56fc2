import type { FinancialStatus, FinancialType } from '../../api/types';

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

export const CATEGORIES: Record<FinancialType, string[]> = {
  revenue: ['venda-veiculo', 'comissao', 'financiamento', 'seguro'],
  expense: ['aluguel', 'pessoal', 'marketing', 'tecnologia'],
  cost: ['funilaria', 'mecanica', 'higienizacao', 'documentacao'],
};
export const CATEGORY_LABELS: Record<string, string> = {
  'venda-veiculo': 'Venda de veículo',
  comissao: 'Comissão',
  financiamento: 'Financiamento',
  seguro: 'Seguro',
  aluguel: 'Aluguel',
  pessoal: 'Pessoal',
  marketing: 'Marketing',
  tecnologia: 'Tecnologia',
  funilaria: 'Funilaria',
  mecanica: 'Mecânica',
  higienizacao: 'Higienização',
  documentacao: 'Documentação',
};
export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c;

export const today = () => new Date().toISOString().slice(0, 10);

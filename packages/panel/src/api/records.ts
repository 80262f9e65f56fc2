// The shapes of the panel's record routes (deals, vehicles, clients, agenda, financial, dashboard):
// the public API's field names, as the panel contract for the boards describes them.

export type Priority = 'alta' | 'media' | 'baixa';
export type DealStatus = 'ativo' | 'ganho' | 'perdido' | 'arquivado';

export interface Ref {
  id: string;
  name: string;
}

export interface DealCard {
  id: string;
  title: string;
  value: number | null;
  currency: 'BRL';
  priority: Priority;
  phase: string;
  status: DealStatus;
  client: Ref | null;
  responsible: Ref | null;
  has_overdue_activity: boolean;
  updated_at: string;
}

export interface Deal {
  id: string;
  title: string;
  description: string | null;
  value: number | null;
  currency: 'BRL';
  phase: string;
  priority: Priority;
  probability: number;
  status: DealStatus;
  expected_close_date: string | null;
  source: string | null;
  loss_reason: string | null;
  tags: string[];
  store_id: string | null;
  client_id: string | null;
  client: Ref | null;
  responsible_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface BoardColumn<C> {
  phase: string;
  probability?: number | null;
  count: number;
  total_value?: number | null;
  items: C[];
  has_more: boolean;
}

export interface Board<C> {
  columns: BoardColumn<C>[];
}

export interface ColumnPage<C> {
  items: C[];
  has_more: boolean;
}

export type VehicleStatus = 'ativo' | 'vendido' | 'arquivado';

export interface VehicleCard {
  id: string;
  title: string;
  brand: string;
  model: string;
  price: number | null;
  plate: string | null;
  model_year: number | null;
  mileage: number | null;
  phase: string;
  status: VehicleStatus;
  days_in_stock: number | null;
  created_at: string;
}

export interface Vehicle {
  id: string;
  title: string;
  brand: string;
  model: string;
  version: string | null;
  plate: string | null;
  renavam: string | null;
  chassis: string | null;
  manufacture_year: number | null;
  model_year: number | null;
  mileage: number | null;
  color: string | null;
  fuel: string | null;
  transmission: string | null;
  condition: 'novo' | 'seminovo' | 'usado';
  price: number | null;
  purchase_price: number | null;
  phase: string;
  status: VehicleStatus;
  sold_at: string | null;
  description: string | null;
  store_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface Person {
  id: string;
  name: string;
  role: 'owner' | 'manager' | 'seller';
  active: boolean;
}

export interface Address {
  street: string | null;
  number: string | null;
  complement: string | null;
  neighborhood: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
}

export interface Client {
  id: string;
  type: 'PF' | 'PJ';
  name: string;
  email: string | null;
  phone: string | null;
  mobile_phone?: string | null;
  cpf?: string | null;
  cnpj?: string | null;
  legal_name?: string | null;
  trade_name?: string | null;
  status: 'active' | 'inactive';
  segment?: string | null;
  address?: Address | null;
  notes?: string | null;
  created_at: string;
  updated_at: string;
}

export type ActivityType = 'task' | 'deadline' | 'meeting' | 'call' | 'email' | 'note';
export type ActivityStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

export interface Activity {
  id: string;
  title: string;
  description: string | null;
  type: ActivityType;
  status: ActivityStatus;
  priority: Priority;
  due_at: string | null;
  completed_at: string | null;
  responsible_id: string | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  is_overdue?: boolean;
  is_due_soon?: boolean;
  created_at: string;
  updated_at: string;
}

export type FinancialType = 'revenue' | 'expense' | 'cost';
export type FinancialStatus = 'pending' | 'paid' | 'cancelled';

export interface FinancialRecord {
  id: string;
  type: FinancialType;
  category: string;
  description: string;
  amount: number;
  status: FinancialStatus;
  due_date: string | null;
  paid_at: string | null;
  payment_method: string | null;
  deal_id: string | null;
  client_id: string | null;
  vehicle_id: string | null;
  is_overdue?: boolean;
  created_at: string;
  updated_at: string;
}

export interface ClientOverview {
  client: Client;
  deals: Deal[];
  activities: Activity[];
  financial: FinancialRecord[];
}

export interface Changes {
  cursor: string | null;
  types?: string[];
}

export const PRIORITY_LABELS: Record<Priority, string> = { alta: 'Alta', media: 'Média', baixa: 'Baixa' };
export const DEAL_STATUS_LABELS: Record<DealStatus, string> = { ativo: 'Ativo', ganho: 'Ganho', perdido: 'Perdido', arquivado: 'Arquivado' };

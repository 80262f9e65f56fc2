import { EVENT_TYPES, NOT_YET_EMITTED, type EventType } from '../../domain/events/event-types.js';
import { SCOPES } from '../../domain/teams/api-keys.types.js';

/** Portuguese names for the panel's forms; a kind or scope added later gets a generic label until it has its own. */
const AREAS: Record<string, string> = { deal: 'Negócios', client: 'Clientes', vehicle: 'Veículos', activity: 'Atividades', financial: 'Financeiro' };
const RESOURCES: Record<string, string> = {
  deals: 'negócios',
  clients: 'clientes',
  vehicles: 'veículos',
  activities: 'atividades',
  financial: 'lançamentos financeiros',
  webhooks: 'webhooks',
};

const EVENT_LABELS: Partial<Record<EventType, string>> = {
  'deal.created': 'Negócio criado',
  'deal.updated': 'Negócio atualizado',
  'deal.phase_changed': 'Negócio mudou de fase',
  'deal.won': 'Negócio ganho',
  'deal.lost': 'Negócio perdido',
  'client.created': 'Cliente cadastrado',
  'client.updated': 'Cliente atualizado',
  'client.deactivated': 'Cliente desativado',
  'vehicle.created': 'Veículo cadastrado',
  'vehicle.updated': 'Veículo atualizado',
  'vehicle.sold': 'Veículo vendido',
  'vehicle.phase_changed': 'Veículo mudou de fase',
  'vehicle.price_changed': 'Preço do veículo alterado',
  'vehicle.removed': 'Veículo removido',
  'activity.created': 'Atividade criada',
  'activity.completed': 'Atividade concluída',
  'activity.due_soon': 'Atividade vence em breve',
  'activity.overdue': 'Atividade atrasada',
  'financial.created': 'Lançamento financeiro criado',
  'financial.paid': 'Lançamento financeiro pago',
  'financial.overdue': 'Lançamento financeiro atrasado',
};

export function eventTypeItems() {
  return EVENT_TYPES.map((type) => {
    const area = type.split('.')[0]!;
    return { type, area, area_label: AREAS[area] ?? area, label: EVENT_LABELS[type] ?? type, emitted: !NOT_YET_EMITTED.has(type) };
  });
}

const ACTIONS: Record<string, string> = { read: 'Ler', write: 'Criar e alterar' };
/** Scopes whose words are not "read"/"create and change" a resource. */
const OWN_SCOPE_LABELS: Record<string, string> = { 'leads:write': 'Enviar leads', 'stores:read': 'Ler lojas' };

/** `deals:read` -> `Ler negócios`. */
export function scopeItems() {
  return SCOPES.map((scope) => {
    const [resource = '', action = ''] = (scope as string).split(':');
    const label = OWN_SCOPE_LABELS[scope] ?? (ACTIONS[action] && RESOURCES[resource] ? `${ACTIONS[action]} ${RESOURCES[resource]}` : scope);
    return { scope: scope, label };
  });
}

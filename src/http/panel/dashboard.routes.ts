import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BoardsService } from '../../domain/boards/boards.service.js';
import { crudRoutes } from '../crud-routes.js';
import { nullable } from '../schemas/common.schema.js';
import { seesMoneyOfTheStore } from '../../domain/users/role-rules.js';
import { panelSurface, roleOf, teamOf } from './panel-surface.js';
import { Success } from './panel.schemas.js';

const closed = { additionalProperties: false } as const;
const MoneyCount = Type.Object({ count: Type.Integer(), value: Type.Number() }, closed);
const Dashboard = Type.Object(
  {
    pipeline: Type.Array(Type.Object({ phase: Type.String(), count: Type.Integer(), total_value: Type.Number() }, closed), {
      description: 'ativo deals per phase.',
    }),
    won_this_month: MoneyCount,
    lost_this_month: MoneyCount,
    conversion_rate: nullable(Type.Number({ description: 'Percent (one decimal) of the deals closed this month that were won; null when none closed.' })),
    stock: Type.Array(Type.Object({ phase: Type.String(), count: Type.Integer() }, closed), { description: 'Vehicles in stock (ativo) per phase.' }),
    average_days_in_stock: nullable(Type.Number({ description: 'Mean days since the vehicles in stock were registered (one decimal).' })),
    overdue_activities: Type.Integer(),
    weighted_pipeline: Type.Array(
      Type.Object(
        {
          month: nullable(Type.String({ description: 'YYYY-MM of the expected close; null: deals without one.' })),
          count: Type.Integer(),
          total_value: Type.Number(),
          weighted_value: Type.Number({
            description: 'Sum of value × win probability (ai_win_probability, or the deal’s probability where there is none) ÷ 100.',
          }),
        },
        closed,
      ),
      { description: 'ativo deals per month of expected close, oldest first, those without one last.' },
    ),
    overdue_receivables: Type.Optional(
      Type.Object({ count: Type.Integer(), amount: Type.Number() }, { ...closed, description: 'Absent for a seller (Financeiro is a manager’s).' }),
    ),
  },
  { ...closed, title: 'Dashboard' },
);

/** The home page's figures. */
export function dashboardRoutes({ boards }: { boards: Pick<BoardsService, 'dashboard'> }): FastifyPluginAsyncTypebox {
  return async (app) => {
    crudRoutes(app, panelSurface({ tags: ['Início'] }), '/dashboard').read('', {
      operationId: 'getDashboard',
      summary: 'The home page: pipeline by phase, deals won and lost this month, conversion, stock, overdue activities and receivables',
      description: "Months are the team time zone's. A deal counts as won or lost in the month of its last change (no closing date is stored).",
      answer: Success(Dashboard),
      read: async (request) => {
        // A seller never sees what the store paid or earned: no receivables (the dashboard has no margin).
        const { overdue_receivables, ...figures } = await boards.dashboard(teamOf(request));
        return seesMoneyOfTheStore(roleOf(request)) ? { ...figures, overdue_receivables } : figures;
      },
    });
  };
}

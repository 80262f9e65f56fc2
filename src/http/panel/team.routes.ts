import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { financialMessages, type FinancialService } from '../../domain/financial/financial.service.js';
import { notFound, validationError } from '../../domain/shared/errors.js';
import { isTimeZone } from '../../domain/shared/time-zone.js';
import type { TeamsService } from '../../domain/teams/teams.service.js';
import type { TeamView } from '../../domain/teams/teams.types.js';
import { userMessages } from '../../domain/users/users.service.js';
import { crudRoutes } from '../crud-routes.js';
import { invalidBody, owner, panelSurface, seller, teamOf } from './panel-surface.js';
import { Success, Team, TeamBody } from './panel.schemas.js';

export interface TeamRoutesDeps {
  teams: Pick<TeamsService, 'find' | 'update'>;
  /** The time zone goes through the financial service: it also moves the overdue time of pending records. */
  financial: Pick<FinancialService, 'setTeamTimeZone'>;
}

const teamAnswer = (team: TeamView) => ({
  id: team.id,
  name: team.name,
  plan: team.plan,
  alert_email: team.alert_email,
  time_zone: team.time_zone,
  created_at: team.created_at,
});

/** Settings -> Team: the signed-in user's team. */
export function teamRoutes({ teams, financial }: TeamRoutesDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const routes = crudRoutes(app, panelSurface({ tags: ['Equipe'], read: seller, write: owner }), '/team');
    routes.read('', {
      operationId: 'getTeam',
      summary: 'The team',
      answer: Success(Team),
      read: async (request) => {
        const team = await teams.find(teamOf(request));
        if (!team) throw notFound(userMessages.teamNotFound);
        return teamAnswer(team);
      },
    });
    routes.write('PUT', '', {
      operationId: 'updateTeam',
      summary: 'Change the team name, alert e-mail or time zone (owner)',
      description: 'The time zone is the one `autosales teams` and the financial records use: pending records move their overdue time with it.',
      body: TeamBody,
      answer: Success(Team),
      errors: {
        400: invalidBody(
          ['VALIDATION_ERROR', 'O nome do time é obrigatório'],
          ['VALIDATION_ERROR', 'E-mail de alerta inválido'],
          ['VALIDATION_ERROR', financialMessages.timeZoneInvalid('Marte/Olympus')],
        ),
      },
      write: async (request) => {
        const { name, alert_email, time_zone } = request.body;
        const teamId = teamOf(request);
        // Every field is checked before anything is written.
        if (time_zone !== undefined && !isTimeZone(time_zone)) throw validationError(financialMessages.timeZoneInvalid(time_zone), 'time_zone');
        let team = await teams.update(teamId, { name, alertEmail: alert_email });
        if (time_zone !== undefined && time_zone !== team.time_zone) {
          await financial.setTeamTimeZone(teamId, time_zone);
          team = (await teams.find(teamId))!;
        }
        return teamAnswer(team);
      },
    });
  };
}

import { Type, type TSchema } from 'typebox';
import { ErrorEnvelope, nullable } from '../schemas/common.schema.js';
import { Timestamp } from '../schemas/responses.schema.js';
import { ROLES } from '../../domain/users/users.types.js';
import { PLANS } from '../../domain/teams/teams.types.js';

/** Panel answers are closed like the API's: an undocumented field fails the test suite's check. */
const closed = { additionalProperties: false } as const;
const Id = Type.String({ format: 'uuid' });

export const Success = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), data }, closed);
export const Role = Type.Enum([...ROLES], { description: 'owner (everything), manager (records, boards, phases), seller (records).' });

export const SessionUser = Type.Object({ id: Id, email: Type.String(), name: Type.String(), role: Role }, closed);
export const SessionTeam = Type.Object(
  {
    id: Id,
    name: Type.String(),
    plan: Type.Enum([...PLANS]),
    time_zone: Type.Optional(Type.String({ description: 'IANA time zone of the team (once the teams carry one).' })),
  },
  closed,
);
export const SessionAnswer = Success(
  Type.Object(
    {
      user: SessionUser,
      team: SessionTeam,
      csrf_token: Type.String({ description: 'Send it back in the X-CSRF-Token header of every POST, PUT, PATCH and DELETE of this session.' }),
    },
    closed,
  ),
);

export const User = Type.Object(
  {
    id: Id,
    team_id: Id,
    email: Type.String(),
    name: Type.String(),
    role: Role,
    active: Type.Boolean(),
    has_password: Type.Boolean({ description: 'False until an invited user follows their link.' }),
    deactivated_at: nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  closed,
);

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1000 }) },
  closed,
);
export const PasswordBody = Type.Object({ password: Type.String({ maxLength: 1000 }) }, closed);
export const ChangePasswordBody = Type.Object({ current_password: Type.String({ maxLength: 1000 }), new_password: Type.String({ maxLength: 1000 }) }, closed);
export const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const LinkInfo = Success(Type.Object({ email: Type.String(), name: Type.String() }, closed));

/** The error envelope with the messages a route may answer (the panel's OpenAPI document lists them). */
export const failure = (description: string, ...examples: Array<[code: string, message: string]>) => ({
  ...ErrorEnvelope,
  description,
  examples: examples.map(([code, message]) => ({ success: false, error: { code, message } })),
});

export const NoContent = Type.Null({ description: 'Done; no body.' });

import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { WriteOptions } from '../domain/shared/write-options.js';
import type { FieldRules } from './error-handler.js';
import { answerInTransaction } from './idempotency.js';

export type Access = 'read' | 'write';
/** OpenAPI responses by status. */
export type Responses = Record<number, unknown>;

/**
 * How one surface (the public API, its previews, the panel) guards, tags and documents the routes of
 * one resource: what differs between them lives here, so a route file holds only its resource.
 */
export interface RouteSurface {
  /** The route's config: the key's scope, the preview gate or the panel role, for a read or a write. */
  config(access: Access): FastifyContextConfig;
  /** The OpenAPI keys every route carries (tags, security), with the operation's description where the surface adds its note. */
  doc(access: Access, description: string | undefined): Record<string, unknown>;
  /** Responses every route documents; `readsBody`: a POST, PUT or DELETE (a GET's body is never read). */
  responses(readsBody: boolean): Responses;
  /** The `:id` parameter. */
  idParams: TSchema;
  /** The 404 of a route on one record. */
  notFound: Responses;
  /** Set when a create honours Idempotency-Key: the header it documents and the responses it adds (409). */
  idempotency?: { headers: TSchema; responses: Responses };
}

/** One operation's documentation. */
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  /** The success answer's schema, documented under the operation's status. */
  answer: unknown;
  /** The operation's own responses (its 400 and 422 examples); they win over the surface's. */
  errors?: Responses;
  /** Guard it as this access instead of its method's (a GET of a secret that only writers may see). */
  access?: Access;
  /** The resource's rules that need no database, joined to a refused body's schema problems (error.errors). */
  fieldRules?: FieldRules;
}

type Request<Q = unknown, B = unknown, P = unknown> = FastifyRequest<{ Querystring: Q; Body: B; Params: P }>;
type Of<S> = S extends TSchema ? Static<S> : unknown;
type IdRequest<B = unknown> = Request<unknown, B, { id: string }>;
/** Params of a route without its own schema: at most the `:id`. */
type ParamsOf<P> = unknown extends Of<P> ? { id: string } : Of<P>;
type Handler = (request: never, reply: FastifyReply) => unknown;

/** Every answer is the success envelope; a list's adds its pagination when it has one. */
const envelope = <T>(data: T) => ({ success: true as const, data });

/**
 * The routes of one resource at `path` on a surface: list, create, get, update and remove answer in
 * the envelope with the status the contract gives them; `read` and `write` add the resource's other
 * routes (a path with `:id` documents the surface's 404). Routes are registered in the order called,
 * which is their order in the OpenAPI document.
 */
export function crudRoutes(app: Pick<FastifyInstance, 'route'>, surface: RouteSurface, path: string) {
  interface Parts {
    querystring?: TSchema;
    params?: TSchema;
    body?: TSchema;
  }
  function add(
    method: HTTPMethods,
    sub: string,
    access: Access,
    op: Operation & Parts,
    status: number,
    handler: Handler,
    idempotent?: RouteSurface['idempotency'],
  ) {
    const params = op.params ?? (sub.includes(':id') ? surface.idParams : undefined);
    access = op.access ?? access;
    app.route({
      method,
      url: `${path}${sub}`,
      config: {
        ...surface.config(access),
        ...(idempotent ? { idempotent: true } : {}),
        ...(op.fieldRules ? { fieldRules: op.fieldRules } : {}),
      },
      schema: {
        ...surface.doc(access, op.description),
        operationId: op.operationId,
        summary: op.summary,
        ...(idempotent && { headers: idempotent.headers }),
        ...(op.querystring && { querystring: op.querystring }),
        ...(params && { params }),
        ...(op.body && { body: op.body }),
        response: {
          ...surface.responses(method !== 'GET'),
          [status]: op.answer,
          ...idempotent?.responses,
          ...op.errors,
          ...(sub.includes(':id') && surface.notFound),
        },
      },
      handler: handler as (request: FastifyRequest, reply: FastifyReply) => unknown,
    });
  }

  return {
    /** GET `path` (or `path` + `sub`, e.g. `/overdue`): a page (or all) of the resource. */
    list<Q extends TSchema, P extends TSchema>(
      op: Operation & { sub?: string; querystring?: Q; params?: P; read: (request: Request<Of<Q>, unknown, ParamsOf<P>>) => Promise<{ data: unknown[] }> },
    ) {
      add('GET', op.sub ?? '', 'read', op, 200, async (request: Request<Of<Q>, unknown, ParamsOf<P>>) => ({
        success: true as const,
        ...(await op.read(request)),
      }));
    },
    /**
     * POST `path`: 201 with the record. On an idempotent surface `options` stores the answer in the write's transaction: pass it to the service.
     * `answer`: a create whose status and data depend on the outcome (POST /leads: 201 created, 200 joined); document the other status in `errors`.
     */
    create<B extends TSchema, T, A = T>(
      op: Operation & {
        body: B;
        write: (request: Request<unknown, Of<B>>, options: WriteOptions<T>, reply: FastifyReply) => Promise<T>;
        outcome?: (result: T) => { status: number; data: A };
      },
    ) {
      const outcome = op.outcome ?? ((result: T) => ({ status: 201, data: result as unknown as A }));
      add(
        'POST',
        '',
        'write',
        op,
        201,
        async (request: Request<unknown, Of<B>>, reply: FastifyReply) => {
          const options = surface.idempotency
            ? answerInTransaction(
                request,
                (r: T) => outcome(r).status,
                (r: T) => envelope(outcome(r).data),
              )
            : {};
          const { status, data } = outcome(await op.write(request, options, reply));
          return reply.status(status).send(envelope(data));
        },
        surface.idempotency,
      );
    },
    /** GET `path/:id`. */
    get<T>(op: Operation & { read: (request: IdRequest) => Promise<T> }) {
      add('GET', '/:id', 'read', op, 200, async (request: IdRequest) => envelope(await op.read(request)));
    },
    /** PUT `path/:id`. */
    update<B extends TSchema, T>(op: Operation & { body: B; write: (request: IdRequest<Of<B>>) => Promise<T> }) {
      add('PUT', '/:id', 'write', op, 200, async (request: IdRequest<Of<B>>) => envelope(await op.write(request)));
    },
    /** DELETE `path/:id`: 200 with what the removal answers, or 204 without a body. */
    remove<T>(op: Operation & { status?: 200 | 204; write: (request: IdRequest) => Promise<T> }) {
      const status = op.status ?? 200;
      add('DELETE', '/:id', 'write', op, status, async (request: IdRequest, reply: FastifyReply) => {
        const data = await op.write(request);
        return status === 204 ? reply.status(204).send(null) : envelope(data);
      });
    },
    /** Another GET (`sub` such as `/summary` or `/:id/overview`): its data in the envelope. */
    read<Q extends TSchema, P extends TSchema>(
      sub: string,
      op: Operation & { querystring?: Q; params?: P; read: (request: Request<Of<Q>, unknown, ParamsOf<P>>, reply: FastifyReply) => Promise<unknown> },
    ) {
      add('GET', sub, 'read', op, 200, async (request: Request<Of<Q>, unknown, ParamsOf<P>>, reply: FastifyReply) => envelope(await op.read(request, reply)));
    },
    /** Another write (`sub` such as `/:id/complete`): its data in the envelope, with `status` (200 unless given). */
    write<B extends TSchema, P extends TSchema>(
      method: 'POST' | 'PUT',
      sub: string,
      op: Operation & {
        body?: B;
        params?: P;
        status?: 200 | 202;
        write: (request: Request<unknown, Of<B>, ParamsOf<P>>, reply: FastifyReply) => Promise<unknown>;
      },
    ) {
      const status = op.status ?? 200;
      add(method, sub, 'write', op, status, async (request: Request<unknown, Of<B>, ParamsOf<P>>, reply: FastifyReply) =>
        reply.status(status).send(envelope(await op.write(request, reply))),
      );
    },
  };
}

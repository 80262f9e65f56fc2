/** Error codes of the contract, plus the ones DECISIONS.md and our HTTP layer add. */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'DUPLICATE_ENTRY'
  | 'INTERNAL_ERROR'
  | 'RATE_LIMIT_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'SERVICE_UNAVAILABLE'
  | 'IDEMPOTENCY_CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE';

/** Codes only the panel's routes (/panel/api) send; the public API and its SDK never see them. */
export type PanelErrorCode = 'CSRF_INVALID';

/** Optional members of the error envelope, beside the contract's `code` and `message`. */
export interface ErrorExtras {
  /** The one field (body path such as `address.city`, or query parameter) the error is about. */
  field?: string;
  /** Machine-readable detail, e.g. `{ allowed: [...] }` for `Fase inválida`. */
  details?: Record<string, unknown>;
}

/** A failure with a place in the contract: status, code and Portuguese message go to the client as they are. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode | PanelErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (message: string, field?: string, details?: Record<string, unknown>) =>
  new AppError(400, 'VALIDATION_ERROR', message, { ...(field ? { field } : {}), ...(details ? { details } : {}) });
export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const duplicateEntry = (message: string, field?: string) => new AppError(422, 'DUPLICATE_ENTRY', message, field ? { field } : {});

export const messages = {
  unauthorized: 'Chave de API ausente ou inválida',
  forbidden: 'Esta chave de API não tem permissão para este recurso',
  internal: 'Erro interno do servidor',
  routeNotFound: 'Rota não encontrada',
  methodNotAllowed: 'Método não permitido para esta rota',
  notImplemented: 'Este endpoint ainda não está disponível',
  invalidJson: 'JSON inválido',
  bodyNotObject: 'O corpo da requisição deve ser um objeto JSON',
  unsupportedMediaType: "Content-Type deve ser 'application/json'",
  charsetNotUtf8: "Content-Type deve ser 'application/json' em UTF-8 (charset=utf-8 ou nenhum charset)",
  payloadTooLarge: 'O corpo da requisição excede o limite de 1 MiB',
  noFieldToUpdate: 'Nenhum campo para atualizar',
  dealNotFound: 'Negócio não encontrado',
  clientNotFound: 'Cliente não encontrado',
  invalidPhase: 'Fase inválida',
  cpfInvalid: 'CPF inválido',
  cnpjInvalid: 'CNPJ inválido',
  cpfTaken: 'CPF já cadastrado',
  cnpjTaken: 'CNPJ já cadastrado',
  databaseUnavailable: 'Banco de dados indisponível',
  vehicleNotFound: 'Veículo não encontrado',
  plateInvalid: 'Placa inválida',
  renavamInvalid: 'RENAVAM inválido',
  chassisInvalid: 'Chassi inválido',
  plateTaken: 'Placa já cadastrada',
  chassisTaken: 'Chassi já cadastrado',
  renavamTaken: 'RENAVAM já cadastrado',
  activityNotFound: 'Atividade não encontrada',
  financialNotFound: 'Registro financeiro não encontrado',
} as const;

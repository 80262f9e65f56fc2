/** What `begin` decides for a request carrying an Idempotency-Key. */
export type Begin = { kind: 'proceed' } | { kind: 'replay'; statusCode: number; body: string };

/** The exact answer stored for a key: status and JSON body, replayed byte for byte. */
export interface StoredAnswer {
  statusCode: number;
  body: string;
}

import { validationError } from './errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

/** `limit` above the maximum is clamped (the pagination object then shows the limit used). */
export function pageOf(page = 1, limit = DEFAULT_LIMIT): Page {
  const used = Math.min(limit, MAX_LIMIT);
  return { page, limit: used, offset: (page - 1) * used };
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export const paginationOf = ({ page, limit }: Page, total: number): Pagination => ({
  page,
  limit,
  total,
  pages: Math.ceil(total / limit),
});

export interface Sort<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** `-field` is descending, `field` ascending; only fields of the resource's allow-list. */
export function parseSort<F extends string>(raw: string | undefined, allowed: readonly F[]): Sort<F> {
  const value = raw ?? '-created_at';
  const descending = value.startsWith('-');
  const field = (descending ? value.slice(1) : value) as F;
  if (!allowed.includes(field)) {
    throw validationError(`Parâmetro 'sort' inválido. Use um de: ${allowed.join(', ')} (prefixo '-' para ordem decrescente)`, 'sort');
  }
  return { field, direction: descending ? 'desc' : 'asc' };
}

/** Same-valued JSON for change detection of list fields such as tags. */
export const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

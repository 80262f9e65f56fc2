import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/domain/shared/errors.js';
import { DEFAULT_LIMIT, MAX_LIMIT, pageOf, paginationOf, parseSort } from '../../src/domain/shared/list-query.js';

describe('pageOf', () => {
  it('defaults to page 1 and 20 items', () => {
    expect(DEFAULT_LIMIT).toBe(20);
    expect(pageOf()).toEqual({ page: 1, limit: 20, offset: 0 });
    expect(pageOf(undefined, undefined)).toEqual({ page: 1, limit: 20, offset: 0 });
  });

  it('computes the offset from page and limit', () => {
    expect(pageOf(3, 10)).toEqual({ page: 3, limit: 10, offset: 20 });
    expect(pageOf(2)).toEqual({ page: 2, limit: 20, offset: 20 });
  });

  it('clamps limit to 100 and uses the clamped limit for the offset', () => {
    expect(MAX_LIMIT).toBe(100);
    expect(pageOf(1, 500)).toEqual({ page: 1, limit: 100, offset: 0 });
    expect(pageOf(2, 101)).toEqual({ page: 2, limit: 100, offset: 100 });
    expect(pageOf(1, 100)).toEqual({ page: 1, limit: 100, offset: 0 });
  });
});

describe('paginationOf', () => {
  const page = (p: number, l: number) => pageOf(p, l);

  it.each([
    [0, 20, 0],
    [1, 20, 1],
    [20, 20, 1],
    [21, 20, 2],
    [100, 100, 1],
    [101, 100, 2],
    [7, 1, 7],
  ])('total %s with limit %s gives %s pages', (total, limit, pages) => {
    expect(paginationOf(page(1, limit), total)).toEqual({ page: 1, limit, total, pages });
  });

  it('reports the clamped limit and the requested page (even past the end)', () => {
    expect(paginationOf(pageOf(9, 1000), 150)).toEqual({ page: 9, limit: 100, total: 150, pages: 2 });
  });
});

describe('parseSort', () => {
  const allowed = ['created_at', 'updated_at', 'title', 'value'] as const;

  it('defaults to -created_at', () => {
    expect(parseSort(undefined, allowed)).toEqual({ field: 'created_at', direction: 'desc' });
  });

  it('reads a - prefix as descending and no prefix as ascending', () => {
    expect(parseSort('title', allowed)).toEqual({ field: 'title', direction: 'asc' });
    expect(parseSort('-value', allowed)).toEqual({ field: 'value', direction: 'desc' });
    expect(parseSort('created_at', allowed)).toEqual({ field: 'created_at', direction: 'asc' });
  });

  it.each(['bogus', '', '-', '--title', '+title', 'Title', ' title', 'title,value'])('refuses %j with 400 listing the allowed fields', (raw) => {
    let caught: unknown;
    try {
      parseSort(raw, allowed);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/^Parâmetro 'sort' inválido\. Use um de: created_at, updated_at, title, value/);
  });
});

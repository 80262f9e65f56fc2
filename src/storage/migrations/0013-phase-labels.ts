import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** The defaults' labels as of this migration (a migration is history: it keeps its own copy of the rule). */
const LABELS: Record<string, string> = {
  lead: 'Lead',
  qualificado: 'Qualificado',
  proposta: 'Proposta',
  negociacao: 'Negociação',
  fechamento: 'Fechamento',
  entrada: 'Entrada',
  preparacao: 'Preparação',
  documentacao: 'Documentação',
  disponivel: 'Disponível',
  reservado: 'Reservado',
};

const labelOf = (name: string): string => {
  const spaced = name.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return LABELS[name] ?? (spaced ? spaced[0]!.toLocaleUpperCase('pt-BR') + spaced.slice(1) : name);
};

/**
 * Phase labels (issue 25; docs/interpretation.md, "Phase names and labels"): both boards' phases get a
 * `label`, what the panel shows, beside the `name` the API reads and writes. Existing phases get their
 * default label (Negociação for `negociacao`, Preparação for `preparacao`; any other name with a
 * capital first letter and `_` as a space), one statement per distinct name.
 */
export function phaseLabels(_dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['team_phases', 'vehicle_phases'] as const) {
        await sql`alter table ${sql.table(table)} add column label text not null default ''`.execute(db);
        const names = await sql<{ name: string }>`select distinct name from ${sql.table(table)}`.execute(db);
        for (const { name } of names.rows) await sql`update ${sql.table(table)} set label = ${labelOf(name)} where name = ${name}`.execute(db);
      }
    },
  };
}

import { fromBreachColumns, toBreachColumns, type BreachColumns } from '../breachRows.ts';

/** A `breaches` row as PostgreSQL returns it (data classes as jsonb, the flag as boolean): the columns as values. */
export type BreachRecord = BreachColumns;

export const toRecord = toBreachColumns;
export const fromRecord = fromBreachColumns;

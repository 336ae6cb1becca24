import type { Breach } from '../../shared/api/index.ts';

/** A `breaches` row as SQLite returns it. */
export interface BreachRow {
  id: string;
  domain: string;
  breach_date: string;
  added_date: string;
  modified_date: string;
  data_classes: string;
  is_sensitive: number;
}

export function toBreachRow(breach: Breach): BreachRow {
  return {
    id: breach.id,
    domain: breach.domain,
    breach_date: breach.breachDate,
    added_date: breach.addedDate,
    modified_date: breach.modifiedDate,
    data_classes: JSON.stringify(breach.dataClasses),
    is_sensitive: breach.isSensitive ? 1 : 0,
  };
}

export function fromBreachRow(row: BreachRow): Breach {
  return {
    id: row.id,
    domain: row.domain,
    breachDate: row.breach_date,
    addedDate: row.added_date,
    modifiedDate: row.modified_date,
    dataClasses: JSON.parse(row.data_classes) as string[],
    isSensitive: row.is_sensitive === 1,
  };
}

/** Callers get their own copy: the store's cached catalog must not change under it. */
export function copyBreach(breach: Breach): Breach {
  return { ...breach, dataClasses: [...breach.dataClasses] };
}

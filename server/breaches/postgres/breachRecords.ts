import type { Breach } from '../../../shared/api/index.ts';

/** A `breaches` row as PostgreSQL returns it (data classes as jsonb, the flag as boolean). */
export interface BreachRecord {
  id: string;
  domain: string;
  breach_date: string;
  added_date: string;
  modified_date: string;
  data_classes: string[];
  is_sensitive: boolean;
}

export function toRecord(breach: Breach): BreachRecord {
  return {
    id: breach.id,
    domain: breach.domain,
    breach_date: breach.breachDate,
    added_date: breach.addedDate,
    modified_date: breach.modifiedDate,
    data_classes: breach.dataClasses,
    is_sensitive: breach.isSensitive,
  };
}

export function fromRecord(row: BreachRecord): Breach {
  return {
    id: row.id,
    domain: row.domain,
    breachDate: row.breach_date,
    addedDate: row.added_date,
    modifiedDate: row.modified_date,
    dataClasses: row.data_classes,
    isSensitive: row.is_sensitive,
  };
}

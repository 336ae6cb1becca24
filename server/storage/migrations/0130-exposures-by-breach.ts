/**
 * Exposures by breach (issue 39, `npm run bench:scale`): a breach leaving the catalog records, per
 * address exposed to it, what left and which resolutions stay (`catalog_changes`), inside the
 * catalog's replacement. The exposures' key starts with the address, so finding a breach's
 * addresses read every exposure of every person: 1.4 s at a million people (six million rows),
 * inside that transaction. With this index it reads that breach's exposures only.
 * Released: never edited, only followed (server/store/postgres/migrations/index.ts).
 */
export const exposuresByBreachSql = `
      CREATE INDEX exposures_breach ON exposures (breach_id);
    `;

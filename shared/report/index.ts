export * from './report.ts';
export * from './rows.ts';
export * from './fixGroups.ts';
export * from './progress.ts';
export * from './summary.ts';

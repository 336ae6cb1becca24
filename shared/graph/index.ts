export * from './expression.ts';
export * from './response.ts';
export * from './nodeIds.ts';

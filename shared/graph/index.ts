export * from './expression.ts';
export * from './response.ts';

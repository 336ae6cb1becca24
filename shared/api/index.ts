export * from './primitives.ts';
export * from './dataClassNames.ts';
export * from './breach.ts';
export * from './resolution.ts';
export * from './query.ts';
export * from './problem.ts';
export * from './filter.ts';
export * from './localService.ts';

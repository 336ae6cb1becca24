export * from './filter.ts';
export * from './legacyFilter.ts';
export * from './document.ts';
export * from './api.ts';
export * from './engine.ts';
export * from './answer.ts';
export * from './understandQuery.ts';
export * from './listText.ts';

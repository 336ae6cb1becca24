export * from './details.ts';
export * from './preferences.ts';

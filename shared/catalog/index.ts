export * from './details.ts';
export * from './preferences.ts';
export * from './feedKeys.ts';

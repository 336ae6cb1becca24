export * from './details.ts';

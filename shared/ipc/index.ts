export * from './protocol.ts';
export * from './contract.ts';
export * from './events.ts';
export * from './views.ts';
export * from './host.ts';
export * from './feed.ts';
export * from './checks.ts';
export * from './addresses.ts';

/**
 * Every call of the route table (../endpoints.ts) by its name, a module for each kind of call: a
 * bundle carries only the modules whose calls its code names (a first screen, which reads, none of
 * the writes, the notices or moderation).
 */
export * from './session.ts';
export * from './reads.ts';
export * from './writes.ts';
export * from './notices.ts';
export * from './moderation.ts';

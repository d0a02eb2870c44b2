/**
 * Every call of the route table (../endpoints.ts) by its name, a module for each kind of call: a
 * bundle carries only the modules whose calls its code names (a first screen carries the session's
 * calls and the feeds' reads).
 */
export * from './session.ts';
export * from './feed-reads.ts';
export * from './other-reads.ts';
export * from './writes.ts';
export * from './notices.ts';
export * from './moderation.ts';

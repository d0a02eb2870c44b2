// Unit-test setup (vitest project "unit", jsdom environment from vite.config.ts).
// IndexedDB for the local cache and the query persister.
import 'fake-indexeddb/auto';

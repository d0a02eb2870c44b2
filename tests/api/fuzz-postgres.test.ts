/** Fuzzing every call on PostgreSQL: see tests/support/fuzz.ts. */
import { testDatabases } from '../support/api.ts';
import { describeFuzz } from '../support/fuzz.ts';

describeFuzz(testDatabases.find((database) => database.name === 'PostgreSQL')!, 6_000);

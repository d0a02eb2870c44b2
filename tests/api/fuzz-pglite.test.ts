/** Fuzzing every call on PGlite (issue 12, item 1): see tests/support/fuzz.ts. */
import { testDatabases } from '../support/api.ts';
import { describeFuzz } from '../support/fuzz.ts';

describeFuzz(testDatabases.find((database) => database.name === 'PGlite')!, 4_000);

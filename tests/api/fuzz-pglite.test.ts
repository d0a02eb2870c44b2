/** Fuzzing every call on PGlite: see tests/support/fuzz.ts. */
import { testDatabases } from '../support/api.ts';
import { describeFuzz } from '../support/fuzz.ts';

describeFuzz(testDatabases.find((database) => database.name === 'PGlite')!, 4_000);
